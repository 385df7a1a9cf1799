/**
 * Real Pi 1.6.0 for the VS Code suites' live sessions: an agent dir of its own (the fake provider, a test
 * Pi package loaded before the bridge, and the bridge from this extension's dist/bridge installed as
 * Connect installs it), its sessions written into the agent dir VS Code reads (`--session-dir`).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { installBridge } from '../../src/node/bridge/bridgeInstall';
import type { FakeLlmServer } from '../support/fakeLlmServer';
import { repoRoot } from '../support/paths';
import { RealPi, sessionFolderName, writeFakeProvider } from '../support/realPi';
import type { ExtensionApi } from '../../src/host/extensionApi';
import { EXTENSION_ID, fixtures, waitUntil } from './helpers';

const PI_EXTENSIONS = join(repoRoot, 'test', 'fixtures', 'pi-extensions');

/**
 * `before`: the test package loaded before the bridge (`pruner-stand-in` or `context-changer`). `cwd`: the
 * project folder (default: the test workspace); `args`: more of Pi's arguments (`--session <file>` resumes
 * that file). Temporary folders made are pushed to `temps`.
 */
export async function startLivePi(server: FakeLlmServer, before: string, temps: string[], cwd = fixtures().workspace, args: readonly string[] = []): Promise<RealPi> {
	const agentDir = mkdtempSync(join(tmpdir(), 'pi-condense-live-agent-'));
	temps.push(agentDir);
	writeFakeProvider(agentDir, server.url);
	writeFileSync(join(agentDir, 'settings.json'), JSON.stringify({ packages: [join(PI_EXTENSIONS, before)] }));
	const extension = vscode.extensions.getExtension(EXTENSION_ID);
	assert.ok(extension);
	await installBridge(agentDir, join(extension.extensionPath, 'dist', 'bridge'));
	return RealPi.start({ agentDir, cwd, args: ['--session-dir', join(fixtures().sessionsDir, sessionFolderName(cwd)), ...args] });
}

/** The files in a project's session folder now (call before the live Pis start; see `removeLiveSessions`). */
export function sessionFilesOf(cwd: string): Set<string> {
	const folder = join(fixtures().sessionsDir, sessionFolderName(cwd));
	return new Set(existsSync(folder) ? readdirSync(folder) : []);
}

/**
 * Removes the session files the live Pis wrote into VS Code's agent dir since `before` (the suites after
 * this one count the fixture sessions), waits for the views to drop them, and selects the basic session again.
 */
export async function removeLiveSessions(api: ExtensionApi, cwd: string, before: ReadonlySet<string>): Promise<void> {
	const folder = join(fixtures().sessionsDir, sessionFolderName(cwd));
	const written = [...sessionFilesOf(cwd)].filter((name) => !before.has(name) && name.endsWith('.jsonl')).map((name) => join(folder, name));
	for (const path of written) {
		rmSync(path, { force: true });
	}
	await waitUntil(() => written.every((path) => !api.controller.sessionPaths().includes(path)), 'the live sessions gone from the list');
	await vscode.commands.executeCommand('piCondense.selectSession', fixtures().basic.path);
}
