#!/usr/bin/env node
// Runs the mocha suite out/test/integration/index.js inside VS Code's real Node extension host
// (code-server + headless Chromium) with this project loaded as the development extension.
// Builds nothing: `npm run test:integration` builds first. Installs code-server on first use (setup.mjs).
// Prints `integration: N passed, M failed`; exit code 0 only when tests ran and all passed.
//   --restricted  open the workspace untrusted (VS Code's restricted mode) and run only test/integration/restricted/
//   HARNESS_VERBOSE=1  show every workbench and server log line     HARNESS_KEEP=1  keep the temp dirs
//   HARNESS_TIMEOUT=<seconds>  give up after this long (default 360: the whole suite, on two cores shared with other work, takes about 150 s on today's VS Code and more on the oldest)
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { delimiter, join, sep } from 'node:path';
import { format } from 'node:util';
import { exitWhenClosed, launchChromium, makeTempDir, projectRoot, removeDir, startCodeServer, within } from './lib.mjs';
import { workbenchUrl } from './workbenchRun.mjs';
import { writeIntegrationFixtures } from './integrationFixtures.mjs';
import { installPiInPrefix } from '../support/piPrefix.mjs';
import { ensureHarnessInstalled } from './setup.mjs';
import { ensurePiNode } from './piNode.mjs';
import { performUiAction, uiActionLine } from './uiActions.mjs';

const testsEntry = join(projectRoot, 'out', 'test', 'integration', 'index.js');
const timeoutMs = Number(process.env.HARNESS_TIMEOUT || 360) * 1000;
const verbose = Boolean(process.env.HARNESS_VERBOSE);
// Workbench chatter that says nothing about our tests.
const noise = /^(CodeExpectedError|Resolving|Resolved|Creating a socket|Updating additional|ChatSessionStore|\[ChatModelSelection\]|\[Service Worker\]|Ignoring fetching additional|\[reconnection-grace-time\])/;
const resultLine = /^pi-condense-integration-result (\{.*\})$/;
const restricted = process.argv.includes('--restricted');

const cleanups = [];
let cleaningUp;
function cleanUp() {
	cleaningUp ??= (async () => {
		for (const step of cleanups.reverse()) {
			await step().catch((error) => console.error('[harness] cleanup:', error.message));
		}
	})();
	return cleaningUp;
}
for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]]) {
	process.on(signal, () => void cleanUp().finally(() => process.exit(code)));
}

/** The extension host's own log and our extension's log files (not the built-ins'), for a failure report. */
function extensionHostLogs(userDataDir) {
	const found = [];
	const walk = (dir) => {
		for (const entry of existsSync(dir) ? readdirSync(dir, { withFileTypes: true }) : []) {
			const path = join(dir, entry.name);
			if (entry.isDirectory()) {
				walk(path);
			} else if (entry.name === 'remoteexthost.log' || path.includes(`${sep}pi-condense.pi-condense-vscode${sep}`)) {
				found.push(path);
			}
		}
	};
	walk(join(userDataDir, 'logs'));
	return found.map((file) => `--- ${file}\n${readFileSync(file, 'utf8')}`).join('\n');
}

async function runSuite() {
	for (const built of [join(projectRoot, 'dist', 'extension.js'), testsEntry]) {
		if (!existsSync(built)) {
			throw new Error(`${built} is missing: run npm run test:integration (it builds first)`);
		}
	}
	ensureHarnessInstalled();
	// The live-session tests start real Pi 1.6.0, which needs Node >= 22.19 (the oldest VS Code's host runs Node 20).
	ensurePiNode(projectRoot, (message) => console.log(`[setup] ${message}`));
	const startedAt = Date.now();
	// The agent dir holds real sessions and Pi's settings before the extension starts; the extension host
	// finds it through PI_CODING_AGENT_DIR, the tests through PI_CONDENSE_TEST_FIXTURES.
	const agentDir = realpathSync(makeTempDir('pi-condense-agent-'));
	const workspace = realpathSync(makeTempDir('pi-condense-workspace-'));
	// Tests ask for clicks in webviews through their log (uiActions.mjs); outcomes come back as files here.
	const uiResults = makeTempDir('pi-condense-ui-');
	// The bridges' runtime folder of this run only: the extension sees the Pis the tests start, no one else's.
	const runtimeDir = makeTempDir('pi-condense-run-');
	chmodSync(runtimeDir, 0o700);
	cleanups.push(async () => {
		removeDir(agentDir);
		removeDir(workspace);
		removeDir(uiResults);
		removeDir(runtimeDir);
	});
	const fixtures = writeIntegrationFixtures(agentDir, workspace, { restricted });
	// Pi 1.6.0 installed as `npm install -g` leaves it (a link to the dev dependency's `pi`), its folder on the
	// PATH of the user's login shell only: the harness's own SHELL (/bin/sh as a login shell) reads a home of its
	// own whose .profile adds the prefix's bin, as a user's does, except for VS Code's own probe of the login
	// shell (VSCODE_RESOLVING_ENVIRONMENT, as some users' profiles skip it), so the extension host's PATH has
	// no pi: the extension must find it as a terminal would. The summarizer uses that Pi's pi-ai in a trusted
	// workspace (and must not in restricted mode).
	const npmPrefix = realpathSync(makeTempDir('pi-condense-npm-prefix-'));
	cleanups.push(async () => removeDir(npmPrefix));
	const installedPi = installPiInPrefix(projectRoot, npmPrefix, '1.6.0');
	const home = join(npmPrefix, 'home');
	mkdirSync(home);
	writeFileSync(join(home, '.profile'), `if [ -z "$VSCODE_RESOLVING_ENVIRONMENT" ]; then export PATH="${installedPi.binDir}:$PATH"; fi\n`);
	const loginShell = join(npmPrefix, 'login-shell');
	writeFileSync(loginShell, '#!/bin/sh\nexec /bin/sh "$@"\n', { mode: 0o755 });
	// npm run puts node_modules/.bin (the dev dependency's pi) on the PATH: not the extension host's.
	const hostPath = (process.env.PATH ?? '').split(delimiter).filter((folder) => folder !== '' && !existsSync(join(folder, 'pi'))).join(delimiter);
	const server = await startCodeServer({
		workspace,
		verbose,
		env: {
			// The bridges' other place (without XDG_RUNTIME_DIR) is the home's cache folder: the run's own too.
			HOME: home, XDG_CACHE_HOME: join(home, '.cache'), SHELL: loginShell, PATH: hostPath,
			PI_CONDENSE_TEST_INSTALLED_PI: realpathSync(installedPi.source),
			PI_CODING_AGENT_DIR: agentDir, PI_CONDENSE_TEST_AGENT_DIR: agentDir, PI_CONDENSE_TEST_WORKSPACE: workspace,
			PI_CONDENSE_TEST_FIXTURES: JSON.stringify(fixtures), PI_CONDENSE_TEST_UI_RESULTS: uiResults, XDG_RUNTIME_DIR: runtimeDir,
			...(restricted ? { PI_CONDENSE_TEST_RESTRICTED: '1' } : {}),
		},
		restricted,
	});
	cleanups.push(() => server.stop());
	console.log(`[harness] code-server up on ${server.url} after ${Date.now() - startedAt} ms`);
	if (process.env.HARNESS_KEEP) {
		console.log(`[harness] keeping ${server.runDir} ${agentDir} ${workspace}`);
	}
	const browser = await launchChromium();
	cleanups.push(() => browser.close());
	const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });

	// VS Code's web workbench reports extension-test output and the exit code through these two hooks.
	let counts;
	let reportExit;
	const exited = new Promise((resolve) => (reportExit = resolve));
	await page.exposeFunction('codeAutomationLog', (type, args) => {
		const line = format(...(Array.isArray(args) ? args : [args]));
		const uiAction = uiActionLine.exec(line.trim());
		if (uiAction) {
			void performUiAction(page, JSON.parse(uiAction[1]), uiResults);
			return;
		}
		const result = resultLine.exec(line.trim());
		if (result) {
			counts = JSON.parse(result[1]);
		} else if (verbose || !noise.test(line)) {
			(type === 'error' ? console.error : console.log)(line);
		}
	});
	await page.exposeFunction('codeAutomationExit', (code) => reportExit(code));
	page.on('pageerror', (error) => console.error('[workbench page error]', error.message));

	await page.goto(workbenchUrl(server, { workspace, extensionDevelopmentPath: projectRoot, extensionTestsPath: testsEntry }));
	const exitCode = await within(exited, timeoutMs, 'timeout');
	if (exitCode !== 0) {
		console.error(exitCode === 'timeout' ? `[harness] TIMEOUT after ${timeoutMs / 1000} s: the tests never reported back` : `[harness] extension tests exited with ${exitCode}`);
		console.error(`[harness] code-server log:\n${server.log()}`);
		console.error(`[harness] extension host logs:\n${extensionHostLogs(server.userDataDir)}`);
	}
	console.log(`[harness] done after ${Date.now() - startedAt} ms`);
	return { exitCode, counts };
}

let outcome;
try {
	outcome = await runSuite();
} catch (error) {
	console.error(`[harness] ${error instanceof Error ? error.message : String(error)}`);
	outcome = { exitCode: 'error' };
} finally {
	await cleanUp();
}
const passed = outcome.counts?.passed ?? 0;
// A run that never reached mocha's end (load error, timeout) counts as one failure at least.
const failed = outcome.exitCode === 0 ? (outcome.counts?.failed ?? 0) : Math.max(1, outcome.counts?.failed ?? 0);
const pending = outcome.counts?.pending ? `, ${outcome.counts.pending} pending` : '';
console.log(`integration${restricted ? ' (restricted mode)' : ''}: ${passed} passed, ${failed} failed${pending}`);
// A PI_CONDENSE_TEST_GREP may match no test of the restricted-mode run: that run then has nothing to do.
const nothingToRun = restricted && Boolean(process.env.PI_CONDENSE_TEST_GREP) && outcome.exitCode === 0 && failed === 0;
if (outcome.exitCode === 0 && passed === 0 && !nothingToRun) {
	console.error('[harness] no integration test ran');
}
await exitWhenClosed(outcome.exitCode === 0 && failed === 0 && (passed > 0 || nothingToRun) ? 0 : 1);
