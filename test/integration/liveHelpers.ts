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
import { startFakeLlmServer, type FakeLlmServer } from '../support/fakeLlmServer';
import { repoRoot } from '../support/paths';
import { RealPi, sessionFolderName, writeFakeProvider } from '../support/realPi';
import type { ExtensionApi } from '../../src/host/extensionApi';
import { activeApi, EXTENSION_ID, fixtures, waitUntil } from './helpers';

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

/** What a suite with live Pis shares, set up by `liveSuite`'s hooks; Pis the tests start go into `pis`. */
export class LiveSuite {
	readonly pis: RealPi[] = [];
	readonly temps: string[] = [];
	private started: { readonly api: ExtensionApi; readonly server: FakeLlmServer } | undefined;

	/** The extension's API (from the suite's `before` on). */
	get api(): ExtensionApi {
		return this.setUp().api;
	}

	/** The fake model server the Pis talk to (from the suite's `before` on). */
	get server(): FakeLlmServer {
		return this.setUp().server;
	}

	start(api: ExtensionApi, server: FakeLlmServer): void {
		this.started = { api, server };
	}

	private setUp(): { readonly api: ExtensionApi; readonly server: FakeLlmServer } {
		assert.ok(this.started, 'the live suite\'s before hook has not run');
		return this.started;
	}
}

/**
 * Registers the hooks of a suite with live Pis in the test workspace: before it, the extension's API and a
 * fake model server answering `Done.`; after it (once `cleanUp`, the suite's own, has run), its Pis stopped,
 * the session files they wrote removed, the server closed and the temporary folders deleted.
 */
export function liveSuite(cleanUp: () => Promise<void> = () => Promise.resolve()): LiveSuite {
	const suite = new LiveSuite();
	let sessionsBefore: ReadonlySet<string> = new Set();
	before(async () => {
		suite.start(await activeApi(), await startFakeLlmServer({ text: 'Done.' }));
		sessionsBefore = sessionFilesOf(fixtures().workspace);
	});
	after(async () => {
		await cleanUp();
		await Promise.all(suite.pis.map((pi) => pi.stop()));
		await removeLiveSessions(suite.api, fixtures().workspace, sessionsBefore);
		await suite.server.close();
		for (const dir of suite.temps) {
			rmSync(dir, { recursive: true, force: true });
		}
	});
	return suite;
}
