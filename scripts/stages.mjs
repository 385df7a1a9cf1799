// The stages of `npm test` and how they are set up: shared by scripts/test.mjs (one run) and
// scripts/testRepeat.mjs (one stage many times).
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { codeServerInstallOf, codeServerVersions } from '../test/harness/lib.mjs';
import { assertChromium, chromiumPathIsCustom } from '../test/harness/chromium.mjs';
import { systemPlan } from '../test/harness/systemPackages.mjs';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const node = (script, ...args) => [process.execPath, join(root, script), ...args];
const mocha = (suite) => node('node_modules/mocha/bin/mocha.js', `out/test/${suite}/**/*.test.js`);
const npmRun = (script) => ['npm', 'run', '--silent', script];

// `build`: what the stage needs built first ('tests': out/test and dist, 'dist': dist only, none: it builds itself).
// `needs`: 'chromium', 'code-server' (which brings Chromium too) or 'pi-node' (a Node Pi 1.x runs on, test/harness/piNode.mjs).
// `vscode`: which VS Code a code-server stage runs on (test/harness/lib.mjs): today's (code-server 4.139.1) or the oldest
// our engines.vscode allows (4.100.3).
export const STAGES = {
	'check-types': { command: npmRun('check-types') },
	lint: { command: npmRun('lint') },
	// The parity tests run Pi 1.6.0's own code, on a Node >= 22.19 (from npm when ours is older).
	unit: { command: mocha('unit'), build: 'tests', needs: 'pi-node' },
	reliability: { command: mocha('reliability'), build: 'tests' },
	browser: { command: mocha('browser'), build: 'tests', needs: 'chromium' },
	// Real Pi 1.6.0 in RPC mode with the bridge (on a Node >= 22.19 from npm), and VS Code's side of it.
	live: { command: mocha('live'), build: 'tests', needs: 'pi-node' },
	...vscodeStages('current', ''),
	// npm start builds before it starts; within a run that has just built, it is told so.
	start: { command: node('test/harness/start-smoke.mjs'), needs: 'code-server', vscode: 'current', prebuiltEnv: { PI_CONDENSE_PREBUILT: '1' } },
	// The same suites on the oldest VS Code we support: its extension host runs Node 20, today's Node 24.
	...vscodeStages('oldest', '-oldest'),
};

/** The VS Code suites on one VS Code: integration, restricted mode, UI smoke, and the packaged .vsix. */
function vscodeStages(vscode, suffix) {
	const on = { needs: 'code-server', vscode };
	return {
		[`integration${suffix}`]: { command: node('test/harness/run-integration.mjs'), build: 'tests', ...on },
		// The same extension in a workspace VS Code does not trust: read-only views, every write refused.
		[`restricted${suffix}`]: { command: node('test/harness/run-integration.mjs', '--restricted'), build: 'tests', ...on },
		[`ui${suffix}`]: { command: node('test/harness/ui-smoke.mjs', '--shots', join('screenshots-tmp', vscode)), build: 'dist', ...on },
		// A live Pi's last two requests in the diff editor (Compare with Previous Request): real Pi 1.6.0 and the bridge.
		[`ui-compare${suffix}`]: { command: node('test/harness/ui-compare.mjs', '--shots', join('screenshots-tmp', vscode)), build: 'tests', ...on },
		// A hostile session selected in the real workbench: no notification holds a link, no process starts.
		[`ui-hostile${suffix}`]: { command: node('test/harness/ui-hostile.mjs'), build: 'dist', ...on },
		// Last: packaging makes its own production build into dist/.
		[`vsix${suffix}`]: { command: node('test/harness/vsix-smoke.mjs'), ...on },
	};
}

// Lanes run at the same time, the stages of a lane one after the other. The static checks read only the
// sources: they start at once and run beside everything. Once built, three lanes side by side: the node
// suites; the page suite (it mostly waits on Chromium); and the VS Code stages, one code-server at a time,
// today's VS Code first (they mostly wait on the workbench, so they fill the time the others leave). The two
// packaging stages come last, on their own: each replaces dist/ with a production build, which the other
// lanes read.
export const STATIC_LANE = ['check-types', 'lint'];
export const STEPS = [
	[
		['unit', 'reliability', 'live'],
		['browser'],
		['integration', 'restricted', 'ui', 'ui-compare', 'ui-hostile', 'start', 'integration-oldest', 'restricted-oldest', 'ui-oldest', 'ui-compare-oldest', 'ui-hostile-oldest'],
	],
	[['vsix', 'vsix-oldest']],
];

export function parseStages(argv) {
	const names = argv.length > 0 ? argv : Object.keys(STAGES);
	const unknown = names.filter((name) => !(name in STAGES));
	if (unknown.length > 0) {
		throw new Error(`unknown stage ${unknown.join(', ')}; stages: ${Object.keys(STAGES).join(', ')}`);
	}
	return new Set(names);
}

/** The one build the chosen stages need: the test build includes dist. */
export function buildFor(names) {
	const kinds = new Set([...names].map((name) => STAGES[name].build).filter(Boolean));
	return kinds.has('tests') ? node('scripts/build.mjs', '--tests') : kinds.has('dist') ? node('scripts/build.mjs') : undefined;
}

/** Stops at once when a needed system package is missing and cannot be installed here. */
export function checkSystem(names) {
	// A CHROMIUM_PATH set to nothing usable is a mistake whatever runs: said at once, not when a suite needs it.
	if (chromiumPathIsCustom()) {
		assertChromium();
	}
	// The Node for Pi 1.x comes from npm, not from the system: only Chromium and code-server are checked here.
	const needs = new Set([...names].map((name) => STAGES[name].needs).filter((need) => need === 'chromium' || need === 'code-server'));
	if (needs.size > 0) {
		const missing = codeServersFor(names).filter((version) => !existsSync(codeServerInstallOf(version).readyMarker));
		const plan = systemPlan({ codeServer: missing.length > 0 });
		if (plan.kind === 'stop') {
			throw new Error(plan.message);
		}
	}
}

/** The code-server versions the chosen stages run on. */
export function codeServersFor(names) {
	return [...new Set([...names].flatMap((name) => (STAGES[name].vscode ? [codeServerVersions[STAGES[name].vscode]] : [])))];
}
