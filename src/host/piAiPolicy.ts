/**
 * Which pi-ai the summarizer may use, decided by VS Code's workspace trust as the ESLint extension decides
 * whether to run a workspace's eslint: in a trusted workspace the pi-ai of the Pi the user installed (found
 * from the `pi` on the PATH, never from a workspace folder); in restricted mode only the bundled one.
 * Asked again for every question to the pi-ai worker, so granting trust applies to the next call.
 */
import * as vscode from 'vscode';
import type { LoginShellState } from '../engine/release';
import type { InstalledPiAiPolicy } from '../node/llm/piAiLoader';
import { fileWorkspaceFolders } from './sessionLocator';

export function installedPiAiPolicy(loginShell: LoginShellState): InstalledPiAiPolicy {
	if (!vscode.workspace.isTrusted) {
		return { allowed: false, reason: 'the workspace is not trusted, so the installed Pi\'s pi-ai is not loaded' };
	}
	// The same Pi the release detection finds: the login shell's PATH first, as a terminal would.
	return { allowed: true, excludedRoots: fileWorkspaceFolders(), loginShell };
}
