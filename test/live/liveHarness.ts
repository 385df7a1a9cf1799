/**
 * What every live test sets up: a temporary home for one run (agent dir with the fake provider and
 * Pi's settings, a project folder, a private runtime folder for the bridges), the fake model server,
 * the bridge installed as "Connect Pi to VS Code" installs it, real Pis started in RPC mode, and
 * everything stopped and removed afterwards.
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installBridge } from '../../src/node/bridge/bridgeInstall';
import { startFakeLlmServer, type FakeLlmServer } from '../support/fakeLlmServer';
import { repoRoot } from '../support/paths';
import { RealPi, writeFakeProvider } from '../support/realPi';
import { LiveBridges, type LiveBridgesOptions } from '../../src/node/bridge/liveBridges';
import type { WorkScope } from '../../src/work';
import { testScope } from '../support/testWork';

const bridgeScopes = new WeakMap<LiveBridges, WorkScope>();

/** VS Code's discovery of the bridges, under a scope of its own (`stopFollowing` closes it). */
export function followBridges(options: Omit<LiveBridgesOptions, 'work'>): LiveBridges {
	const work = testScope('bridges');
	const bridges = new LiveBridges({ work, ...options });
	bridgeScopes.set(bridges, work);
	return bridges;
}

/** Closes the discovery's scope: its scans, poll and connections end. */
export async function stopFollowing(bridges: LiveBridges | undefined): Promise<void> {
	await (bridges && bridgeScopes.get(bridges)?.close());
}

export const BRIDGE_DIST = join(repoRoot, 'dist', 'bridge');
export const PI_EXTENSIONS = join(repoRoot, 'test', 'fixtures', 'pi-extensions');

export interface LiveHome {
	readonly root: string;
	readonly agentDir: string;
	readonly project: string;
	/** XDG_RUNTIME_DIR of the Pis: their bridges' records are in `<runtimeDir>/pi-condense-vscode`. */
	readonly runtimeDir: string;
	/** XDG_CACHE_HOME of the Pis (the bridge's place when XDG_RUNTIME_DIR is unset): never the user's own. */
	readonly cacheDir: string;
	readonly bridgeFolder: string;
	readonly prunerLog: string;
	readonly server: FakeLlmServer;
	readonly pis: RealPi[];
	startPi(env?: Readonly<Record<string, string>>): RealPi;
}

/** `packages` before the bridge's entry (which `installBridge` appends last). */
export async function makeLiveHome(packagesBefore: readonly string[] = [join(PI_EXTENSIONS, 'pruner-stand-in')]): Promise<LiveHome> {
	const root = realpathSync(mkdtempSync(join(tmpdir(), 'pi-condense-live-')));
	const agentDir = join(root, 'agent');
	const project = join(root, 'project');
	const runtimeDir = join(root, 'run');
	const cacheDir = join(root, 'cache');
	mkdirSync(project, { recursive: true });
	mkdirSync(runtimeDir, { mode: 0o700 });
	const server = await startFakeLlmServer({ text: 'Done.' });
	writeFakeProvider(agentDir, server.url);
	writeFileSync(join(agentDir, 'settings.json'), JSON.stringify({ packages: packagesBefore }, null, 2));
	await installBridge(agentDir, BRIDGE_DIST);
	const prunerLog = join(root, 'pruner.log');
	const pis: RealPi[] = [];
	return {
		root, agentDir, project, runtimeDir, cacheDir, bridgeFolder: join(runtimeDir, 'pi-condense-vscode'), prunerLog, server, pis,
		startPi: (env = {}) => {
			const pi = RealPi.start({ agentDir, cwd: project, env: { XDG_RUNTIME_DIR: runtimeDir, XDG_CACHE_HOME: cacheDir, PRUNER_STAND_IN_LOG: prunerLog, ...env } });
			pis.push(pi);
			return pi;
		},
	};
}

export async function closeLiveHome(home: LiveHome | undefined): Promise<void> {
	if (!home) {
		return;
	}
	await Promise.all(home.pis.map((pi) => pi.stop()));
	await home.server.close();
	rmSync(home.root, { recursive: true, force: true });
}

export function settingsOf(agentDir: string): Record<string, unknown> {
	return JSON.parse(readFileSync(join(agentDir, 'settings.json'), 'utf8')) as Record<string, unknown>;
}

/**
 * Polls until `check` returns a value (not undefined), or fails after `timeoutMs` saying what was awaited. The
 * default leaves real Pis on a loaded machine time to start and answer; it only turns a wait that never ends into
 * a clear failure, under the tests' own timeouts.
 */
export async function eventually<T>(check: () => T | undefined | Promise<T | undefined>, what: string, timeoutMs = 60_000): Promise<T> {
	const started = Date.now();
	for (;;) {
		const value = await check();
		if (value !== undefined) {
			return value;
		}
		if (Date.now() - started > timeoutMs) {
			throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
		}
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
}
