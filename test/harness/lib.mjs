// Building blocks of the real-VS-Code harness: start code-server (VS Code's server, web workbench and Node
// extension host, installed by setup.mjs) on loopback with throwaway profile dirs, drive it with Debian's
// headless Chromium through playwright-core, and build the workbench URL that loads our extension.
// Used by run-integration.mjs; kept generic so a UI smoke test or a .vsix install test can reuse it.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assertChromium, chromiumFlags, chromiumPath } from './chromium.mjs';
import { killChildrenSince, openNow, stillOpenAfter } from '../support/openHandles.mjs';

export const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The VS Code versions the suites run on: `current` is today's code-server (VS Code 1.139.1, Node 24), `oldest`
 * the oldest VS Code our `engines.vscode` allows (^1.100.0: code-server 4.100.3 = VS Code 1.100.3, Node 20).
 * A run picks one with PI_CONDENSE_VSCODE=current|oldest (default current); scripts/test.mjs sets it per stage.
 */
export const codeServerVersions = { current: '4.139.1', oldest: '4.100.3' };
export const vscodeTarget = process.env.PI_CONDENSE_VSCODE || 'current';
if (!Object.hasOwn(codeServerVersions, vscodeTarget)) {
	throw new Error(`PI_CONDENSE_VSCODE=${vscodeTarget}: use ${Object.keys(codeServerVersions).join(' or ')}`);
}

/** Where one code-server version lives under the git-ignored .vscode-test/, and its files. */
export function codeServerInstallOf(version) {
	const dir = join(projectRoot, '.vscode-test', `code-server-${version}`);
	// `.node-bin` is written by setup.mjs only when code-server needs another Node major than the one running us.
	return { version, dir, readyMarker: join(dir, '.ok'), nodeFile: join(dir, '.node-bin') };
}

const selected = codeServerInstallOf(codeServerVersions[vscodeTarget]);
export const codeServerVersion = selected.version;
export const codeServerDir = selected.dir;
export const codeServerReadyMarker = selected.readyMarker;
export const codeServerNodeFile = selected.nodeFile;

const codeServerEntry = join(codeServerDir, 'node_modules', 'code-server', 'out', 'node', 'entry.js');

/**
 * VS Code from about 1.10x honours the URL payload (extensionDevelopmentPath, extensionTestsPath) only when the
 * server runs with its smoke-test driver enabled; code-server 4.13x+ passes that through as --vscode-option
 * (4.100 has neither the option nor the need). Read from code-server's own option table, once.
 */
let smokeTestDriverArgs;
function smokeTestDriverOptions() {
	smokeTestDriverArgs ??= readFileSync(join(codeServerDir, 'node_modules', 'code-server', 'out', 'node', 'cli.js'), 'utf8').includes('"vscode-option"')
		? ['--vscode-option', 'enable-smoke-test-driver']
		: [];
	return smokeTestDriverArgs;
}
const liveServers = new Set();
const liveTempDirs = new Set();
// What was open before the runner started anything (see exitWhenClosed).
const openAtStart = openNow();

export const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

/** What `promise` resolves to, or `fallback` after `ms`; the timer is cleared either way (it would hold the run open). */
export async function within(promise, ms, fallback) {
	let timer;
	try {
		return await Promise.race([promise, new Promise((done) => (timer = setTimeout(() => done(fallback), ms)))]);
	} finally {
		clearTimeout(timer);
	}
}

/** A fresh dir under the system temp dir, removed at the latest when this process exits (unless HARNESS_KEEP). */
export function makeTempDir(prefix) {
	const dir = mkdtempSync(join(tmpdir(), prefix));
	liveTempDirs.add(dir);
	return dir;
}

export function removeDir(dir) {
	liveTempDirs.delete(dir);
	if (!process.env.HARNESS_KEEP) {
		rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
	}
}

export function freePort() {
	return new Promise((done, fail) => {
		const probe = createServer();
		probe.unref();
		probe.on('error', fail);
		probe.listen(0, '127.0.0.1', () => {
			const { port } = probe.address();
			probe.close(() => done(port));
		});
	});
}

/** The Node binary code-server must run on (its postinstall built native modules for that major). */
export function codeServerNode() {
	if (!existsSync(codeServerReadyMarker)) {
		throw new Error(`code-server ${codeServerVersion} is not installed: run node test/harness/setup.mjs`);
	}
	return existsSync(codeServerNodeFile) ? readFileSync(codeServerNodeFile, 'utf8').trim() : process.execPath;
}

/** Environment for code-server: ours plus the caller's extras, minus what would redirect or expose it. */
function serverEnvironment(runDir, extraEnv) {
	const env = {
		...process.env,
		// code-server keeps a config file and its own logs under these; keep them out of the user's home.
		XDG_CONFIG_HOME: join(runDir, 'xdg-config'),
		XDG_DATA_HOME: join(runDir, 'xdg-data'),
		// The extension host and built-in extensions (git, TypeScript) leave sockets and dirs in the temp dir.
		TMPDIR: join(runDir, 'tmp'),
		...extraEnv,
		EXTENSIONS_GALLERY: '{}', // no marketplace lookups
	};
	for (const name of Object.keys(env)) {
		// Started from a VS Code terminal, VSCODE_IPC_HOOK_CLI would make code-server hand the folder to that
		// window instead of serving; the other VSCODE_* variables describe that window, not ours.
		if (name.startsWith('VSCODE_') || name === 'PASSWORD' || name === 'HASHED_PASSWORD') {
			delete env[name];
		}
	}
	return env;
}

/** `restricted`: workspace trust on, and the folder opened untrusted (VS Code's restricted mode), with no prompt. */
function writeUserSettings(userDataDir, restricted, settings) {
	mkdirSync(join(userDataDir, 'User'), { recursive: true });
	writeFileSync(join(userDataDir, 'User', 'settings.json'), JSON.stringify({
		...settings,
		'workbench.startupEditor': 'none',
		'telemetry.telemetryLevel': 'off',
		'update.mode': 'none',
		'extensions.autoCheckUpdates': false,
		'extensions.autoUpdate': false,
		'security.workspace.trust.enabled': restricted,
		'security.workspace.trust.startupPrompt': 'never',
		'security.workspace.trust.emptyWindow': false,
		'workbench.enableExperiments': false,
		'workbench.tips.enabled': false,
		'workbench.welcomePage.walkthroughs.openOnInstall': false,
		// code-server's extension host counts as remote: VS Code scans it for ports to forward every few
		// seconds by spawning `ls` and `ps` from it, a fork that holds the host tens of milliseconds once
		// it is large, which the large-session test would count as ours. It stops only when the source
		// of ports is the terminal's output (a tunnel provider keeps it on whatever autoForwardPorts says).
		'remote.autoForwardPorts': false,
		'remote.autoForwardPortsSource': 'output',
		// VS Code 1.10x+ opens a chat view in a secondary side bar on first start: it takes a third of the
		// window (the preview's rows then wrap, and its welcome view covers the editor's middle, where clicks
		// land). A user closes it once; a fresh profile has to say so. (Unknown to 1.100: ignored there.)
		'workbench.secondarySideBar.defaultVisibility': 'hidden',
		'chat.disableAIFeatures': true,
	}, null, '\t'));
}

/**
 * Installs a packaged extension into a server's extensions dir (what a user gets from a .vsix).
 * Call it before opening the workbench.
 */
export function installVsix(server, vsixPath) {
	const result = spawnSync(server.node, [codeServerEntry, '--extensions-dir', server.extensionsDir,
		'--install-extension', resolve(vsixPath)], { encoding: 'utf8', env: server.env });
	if (result.status !== 0) {
		throw new Error(`installing ${vsixPath} failed:\n${result.stdout}${result.stderr}`);
	}
}

/**
 * Starts code-server on a free 127.0.0.1 port with a fresh user-data dir and extensions dir.
 * `env` reaches code-server and through it the extension host (e.g. PI_CODING_AGENT_DIR).
 * Returns once it listens; always call `await server.stop()`, which also deletes its temp dirs.
 * `restricted` opens the workspace untrusted, in VS Code's restricted mode. `settings` are added to the
 * fresh profile's user settings.
 */
export async function startCodeServer({ workspace, env = {}, verbose = false, startTimeoutMs = 60_000, port: requestedPort, restricted = false, settings = {} }) {
	const node = codeServerNode();
	const port = requestedPort ?? await freePort();
	const runDir = makeTempDir('pi-condense-cs-');
	const userDataDir = join(runDir, 'user-data');
	const extensionsDir = join(runDir, 'extensions');
	writeUserSettings(userDataDir, restricted, settings);
	const serverEnv = serverEnvironment(runDir, env);
	mkdirSync(serverEnv.TMPDIR, { recursive: true });
	const args = [codeServerEntry,
		'--bind-addr', `127.0.0.1:${port}`, '--auth', 'none', '--config', join(runDir, 'config.yaml'),
		'--user-data-dir', userDataDir, '--extensions-dir', extensionsDir,
		'--disable-telemetry', '--disable-update-check', ...(restricted ? [] : ['--disable-workspace-trust']),
		'--disable-getting-started-override', '--disable-proxy', ...smokeTestDriverOptions(), resolve(workspace)];
	// Its own process group, so stop() reaches the extension host, pty host and file watcher too.
	const child = spawn(node, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: serverEnv });
	let log = '';
	const collect = (chunk) => {
		log += chunk;
		if (verbose) {
			process.stderr.write(chunk);
		}
	};
	child.stdout.on('data', collect);
	child.stderr.on('data', collect);
	const exited = new Promise((done) => child.once('exit', done));
	const server = {
		port, url: `http://127.0.0.1:${port}`, runDir, userDataDir, extensionsDir, node, env: serverEnv,
		log: () => log,
		stop: () => stopServer(server, child, exited),
	};
	liveServers.add(server);
	server.killNow = () => killGroup(child.pid, 'SIGKILL');
	for (const startedAt = Date.now(); !log.includes('HTTP server listening');) {
		if (child.exitCode !== null || child.signalCode !== null || Date.now() - startedAt > startTimeoutMs) {
			await server.stop();
			throw new Error(`code-server did not start:\n${log}`);
		}
		await sleep(100);
	}
	return server;
}

function killGroup(pid, signal) {
	try {
		process.kill(-pid, signal);
		return true;
	} catch {
		return false; // ESRCH: nothing left in the group
	}
}

async function stopServer(server, child, exited) {
	if (!liveServers.delete(server)) {
		return;
	}
	killGroup(child.pid, 'SIGTERM');
	await within(exited, 5000);
	// Whatever in the group outlived the wrapper gets a short grace period, then SIGKILL.
	for (let i = 0; i < 20 && killGroup(child.pid, 0); i++) {
		await sleep(100);
	}
	killGroup(child.pid, 'SIGKILL');
	removeDir(server.runDir);
}

/**
 * How every harness runner ends: once its servers, browsers and temp dirs are closed, nothing it opened
 * may still be open. If something is, it is named, child processes are killed, and the exit status is 1.
 */
export async function exitWhenClosed(code) {
	const open = await stillOpenAfter(openAtStart);
	if (open) {
		console.error(`[harness] ${open}\n[harness] something the run opened was never closed: killing the child processes named above, exit status 1`);
		killChildrenSince(openAtStart);
	}
	process.exit(open ? 1 : code);
}

// Last resort when the process exits without awaiting stop() (an error, or playwright's own SIGINT handler
// calling process.exit): no orphaned servers, no leftover dirs.
process.on('exit', () => {
	for (const server of liveServers) {
		server.killNow();
	}
	for (const dir of liveTempDirs) {
		removeDir(dir);
	}
});

/**
 * Debian's Chromium (or CHROMIUM_PATH), headless, with the flags of chromium.mjs.
 * Its crash-report and cache dirs go to a temp dir removed when the browser closes, not to the user's home.
 */
export async function launchChromium() {
	assertChromium();
	const { chromium } = await import('playwright-core');
	const homeDir = makeTempDir('pi-condense-chromium-');
	try {
		const browser = await chromium.launch({
			executablePath: chromiumPath(),
			headless: true,
			env: { ...process.env, XDG_CONFIG_HOME: homeDir, XDG_CACHE_HOME: homeDir, TMPDIR: homeDir },
			args: [...chromiumFlags],
		});
		browser.on('disconnected', () => removeDir(homeDir));
		return browser;
	} catch (error) {
		removeDir(homeDir);
		throw error;
	}
}
