#!/usr/bin/env node
// `npm start`: builds the extension and opens it in real VS Code on your Pi sessions.
//   - With a desktop VS Code (`code` on the PATH) it opens a window with the extension loaded for development.
//   - Otherwise it starts code-server (the same one the tests install into .vscode-test/) on 127.0.0.1 with the
//     extension loaded, prints the URL and opens it when a browser is available. Ctrl-C stops everything.
// Sessions: $PI_CODING_AGENT_DIR or ~/.pi/agent; when that has none, demo sessions generated into .demo/.
// Workspace: the folder npm start was run from when Pi has sessions of it, else your newest session's project.
//   PI_CONDENSE_CODE_SERVER=1  use code-server even when `code` exists      PORT=<n>  code-server port (default: free)
//   BROWSER=none               do not try to open a browser          PI_CONDENSE_DEMO_DIR=<dir>  where demo sessions go
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { projectRoot, startCodeServer } from '../test/harness/lib.mjs';
import { workbenchUrl } from '../test/harness/workbenchRun.mjs';
import { ensureHarnessInstalled } from '../test/harness/setup.mjs';

const expandHome = (path) => (path === '~' ? homedir() : path.startsWith('~/') ? join(homedir(), path.slice(2)) : path);

function build() {
	const result = spawnSync(process.execPath, [join(projectRoot, 'scripts', 'build.mjs')], { stdio: 'inherit' });
	if (result.status !== 0) {
		process.exit(result.status ?? 1);
	}
}

/** Where Pi keeps sessions (same precedence as Pi: session-dir variable, settings sessionDir, agentDir/sessions). */
function sessionFolders(agentDir) {
	if (process.env.PI_CODING_AGENT_SESSION_DIR) {
		return [expandHome(process.env.PI_CODING_AGENT_SESSION_DIR)];
	}
	try {
		const settings = JSON.parse(readFileSync(join(agentDir, 'settings.json'), 'utf8'));
		if (typeof settings.sessionDir === 'string' && settings.sessionDir) {
			return [resolve(expandHome(settings.sessionDir))];
		}
	} catch {
		// No settings file (or an invalid one): Pi uses the default folder.
	}
	const root = join(agentDir, 'sessions');
	return existsSync(root) ? readdirSync(root, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => join(root, e.name)) : [];
}

function hasSessions(agentDir) {
	return sessionFolders(agentDir).some((dir) => existsSync(dir) && readdirSync(dir).some((name) => name.endsWith('.jsonl')));
}

/** Every session file Pi keeps, newest first (by the time it was last written). */
function sessionFilesNewestFirst(agentDir) {
	const files = [];
	for (const dir of sessionFolders(agentDir)) {
		for (const name of existsSync(dir) ? readdirSync(dir) : []) {
			if (name.endsWith('.jsonl')) {
				try {
					files.push({ path: join(dir, name), at: statSync(join(dir, name)).mtimeMs });
				} catch {
					// Gone since the listing.
				}
			}
		}
	}
	return files.sort((a, b) => b.at - a.at).map((file) => file.path);
}

/** The project folder a session was started in: its header's `cwd` (the first line), if it reads. */
function sessionCwd(path) {
	let fd;
	try {
		fd = openSync(path, 'r');
		const head = Buffer.alloc(16 * 1024);
		const text = head.toString('utf8', 0, readSync(fd, head, 0, head.length, 0));
		const header = JSON.parse(text.slice(0, text.indexOf('\n') >= 0 ? text.indexOf('\n') : text.length));
		return header?.type === 'session' && typeof header.cwd === 'string' ? header.cwd : undefined;
	} catch {
		return undefined;
	} finally {
		if (fd !== undefined) {
			closeSync(fd);
		}
	}
}

const isFolder = (path) => {
	try {
		return statSync(path).isDirectory();
	} catch {
		return false;
	}
};

/**
 * The folder VS Code opens on your sessions: the current folder when Pi has sessions of it, else the project of
 * your newest session that is still on disk (the one you most likely want to look at), else the current folder.
 * The demo opens its own workspace.
 */
function chooseWorkspace(agentDir, demo, here) {
	if (demo) {
		return here === projectRoot ? join(projectRoot, '.demo', 'workspace') : here;
	}
	const files = sessionFilesNewestFirst(agentDir);
	const cwds = files.map((path) => ({ path, cwd: undefined }));
	const cwdOf = (entry) => (entry.cwd ??= sessionCwd(entry.path) ?? '');
	if (cwds.some((entry) => resolve(cwdOf(entry)) === resolve(here))) {
		console.log(`[start] opening ${here}: Pi has sessions of this folder`);
		return here;
	}
	const newest = cwds.find((entry) => cwdOf(entry) !== '' && isFolder(cwdOf(entry)));
	if (newest) {
		console.log(`[start] opening ${newest.cwd}, the project of your newest session (${newest.path}); run npm start from a project's folder to open that one`);
		return newest.cwd;
	}
	console.log(`[start] no project folder of your sessions is on this machine: opening ${here}`);
	return here;
}

/** The user's agent dir, or a demo one when it holds no session. */
function chooseAgentDir() {
	const userAgentDir = expandHome(process.env.PI_CODING_AGENT_DIR || join(homedir(), '.pi', 'agent'));
	if (hasSessions(userAgentDir)) {
		console.log(`[start] Pi sessions from ${userAgentDir}`);
		return { agentDir: userAgentDir, demo: false };
	}
	const demoAgentDir = process.env.PI_CONDENSE_DEMO_DIR ? resolve(process.env.PI_CONDENSE_DEMO_DIR) : join(projectRoot, '.demo', 'agent');
	mkdirSync(demoAgentDir, { recursive: true });
	if (hasSessions(demoAgentDir)) {
		console.log(`[start] no Pi sessions in ${userAgentDir}: showing the demo sessions in ${demoAgentDir}`);
		return { agentDir: demoAgentDir, demo: true };
	}
	const generated = spawnSync(process.execPath, [join(projectRoot, 'dist', 'cli.js'), 'demo', demoAgentDir], { stdio: 'inherit' });
	if (generated.status !== 0) {
		console.log(`[start] no Pi sessions in ${userAgentDir}, and the demo sessions could not be generated`);
	} else {
		console.log(`[start] no Pi sessions in ${userAgentDir}: showing demo sessions from ${demoAgentDir}`);
	}
	return { agentDir: demoAgentDir, demo: true };
}

function hasDesktopCode() {
	return !process.env.PI_CONDENSE_CODE_SERVER && spawnSync('code', ['--version'], { stdio: 'ignore' }).status === 0;
}

function openBrowser(url) {
	if (process.env.BROWSER === 'none' || !(process.env.DISPLAY || process.env.WAYLAND_DISPLAY || process.platform !== 'linux')) {
		return;
	}
	const opener = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
	spawn(opener, [url], { stdio: 'ignore', detached: true }).on('error', () => undefined).unref();
}

async function main() {
	// npm test's start check runs right after the test build; a user's npm start always builds.
	if (!process.env.PI_CONDENSE_PREBUILT) {
		build();
	}
	const { agentDir, demo } = chooseAgentDir();
	// npm runs scripts in the package's folder and says where it was started in INIT_CWD.
	const here = resolve(process.env.INIT_CWD || process.cwd());
	const workspace = chooseWorkspace(agentDir, demo, here);
	mkdirSync(workspace, { recursive: true });
	if (hasDesktopCode()) {
		console.log('[start] opening VS Code with the extension loaded for development (close the window to stop)');
		const code = spawn('code', ['--wait', '--new-window', `--extensionDevelopmentPath=${projectRoot}`, workspace], {
			stdio: 'inherit', env: { ...process.env, PI_CODING_AGENT_DIR: agentDir },
		});
		code.on('exit', (status) => process.exit(status ?? 0));
		return;
	}
	ensureHarnessInstalled();
	const server = await startCodeServer({ workspace, env: { PI_CODING_AGENT_DIR: agentDir }, port: Number(process.env.PORT) || undefined });
	const url = workbenchUrl(server, { workspace, extensionDevelopmentPath: projectRoot });
	console.log(`\n[start] VS Code (code-server) with Pi Condense is running. Open:\n\n  ${url}\n\n[start] Ctrl-C stops it.`);
	openBrowser(url);
	let stopping = false;
	const stop = async () => {
		if (!stopping) {
			stopping = true;
			console.log('\n[start] stopping code-server');
			await server.stop();
			process.exit(0);
		}
	};
	process.on('SIGINT', () => void stop());
	process.on('SIGTERM', () => void stop());
}

main().catch((error) => {
	console.error(`[start] ${error instanceof Error ? error.message : String(error)}`);
	process.exit(1);
});
