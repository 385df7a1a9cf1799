/**
 * Where the extension looks for Pi: the agent directory from the `piCondense.agentDir` setting,
 * `$PI_CODING_AGENT_DIR` or `~/.pi/agent`, and the session folders inside it (or configured by Pi's
 * `sessionDir`). Remembers the last answer so the welcome view can say where it looked.
 */
import { homedir } from 'node:os';
import * as vscode from 'vscode';
import { resolveAgentDir, type ResolvedAgentDir } from '../node/paths/agentDir';
import { resolveSessionLocations, type SessionLocations } from '../node/sessions/sessionLocations';
import type { ExtensionSettings } from './extensionConfig';

export class SessionLocator {
	private last: ResolvedAgentDir | undefined;

	/** `settings`: `piCondense.agentDir` is read from them at each start. */
	constructor(private readonly settings: ExtensionSettings) {}

	get agentDir(): ResolvedAgentDir {
		return this.last ??= this.resolve();
	}

	async locate(): Promise<SessionLocations> {
		this.last = this.resolve();
		void vscode.commands.executeCommand('setContext', 'piCondense.agentDirSource', this.last.source);
		// In restricted mode a project's .pi/settings.json does not choose where sessions are read from.
		return resolveSessionLocations({ agentDir: this.last.path, env: process.env, homedir: homedir(), workspaceFolders: fileWorkspaceFolders(), trustProjectSettings: vscode.workspace.isTrusted });
	}

	/** A relative agent directory is taken from the first workspace folder, where Pi run for this project would take it (else the home folder). */
	private resolve(): ResolvedAgentDir {
		return resolveAgentDir({ override: this.settings.current.agentDir, env: process.env, homedir: homedir(), cwd: fileWorkspaceFolders()[0] ?? homedir() });
	}
}

/** The workspace's folders on disk (a virtual or remote folder holds no Pi sessions of this machine). */
export function fileWorkspaceFolders(): string[] {
	return (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file').map((folder) => folder.uri.fsPath);
}
