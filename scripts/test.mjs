#!/usr/bin/env node
// `npm test` and every `npm run test:<stage>`: builds once, runs the stages, and prints the time of each and
// the total. The static checks (types, lint) read only the sources: they run alongside the build and the test
// stages, their output held back until each finishes; the test stages run one after the other. Stops at the
// first stage that fails.
//   node scripts/test.mjs                 every stage (npm test)
//   node scripts/test.mjs unit browser    those stages only, after the build they need
// Chromium and code-server are checked at once (a missing system package that only root may install stops
// the run before anything else, naming the packages) and installed right before the first stage needing them.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { codeServerReadyMarker } from '../test/harness/lib.mjs';
import { ensureHarnessInstalled } from '../test/harness/setup.mjs';
import { systemPlan } from '../test/harness/systemPackages.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const node = (script, ...args) => [process.execPath, join(root, script), ...args];
const mocha = (suite) => node('node_modules/mocha/bin/mocha.js', `out/test/${suite}/**/*.test.js`);
const npmRun = (script) => ['npm', 'run', '--silent', script];

// `build`: what the stage needs built first ('tests': out/test and dist, 'dist': dist only, none: it builds itself).
// `needs`: 'chromium' or 'code-server' (which brings Chromium too).
// `alongside`: runs in parallel with the test stages, output held back.
const STAGES = {
	'check-types': { command: npmRun('check-types'), alongside: true },
	lint: { command: npmRun('lint'), alongside: true },
	unit: { command: mocha('unit'), build: 'tests' },
	reliability: { command: mocha('reliability'), build: 'tests' },
	browser: { command: mocha('browser'), build: 'tests', needs: 'chromium' },
	integration: { command: node('test/harness/run-integration.mjs'), build: 'tests', needs: 'code-server' },
	ui: { command: node('test/harness/ui-smoke.mjs', '--shots', 'screenshots-tmp'), build: 'dist', needs: 'code-server' },
	// npm start builds before it starts; within a run that has just built, it is told so.
	start: { command: node('test/harness/start-smoke.mjs'), needs: 'code-server', prebuiltEnv: { PI_CONDENSE_PREBUILT: '1' } },
	// Last: packaging makes its own production build into dist/.
	vsix: { command: node('test/harness/vsix-smoke.mjs'), needs: 'code-server' },
};

const say = (message) => console.log(`[test] ${message}`);
const seconds = (ms) => (ms >= 60_000 ? `${Math.floor(Math.round(ms / 1000) / 60)} min ${Math.round(ms / 1000) % 60} s` : `${(ms / 1000).toFixed(1)} s`);
const running = new Set();

/** Runs a command to its end; `capture` keeps its output instead of showing it. */
function run(command, { env = {}, capture = false } = {}) {
	return new Promise((done) => {
		const child = spawn(command[0], command.slice(1), { cwd: root, stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit', env: { ...process.env, ...env } });
		running.add(child);
		let output = '';
		child.stdout?.on('data', (chunk) => (output += chunk));
		child.stderr?.on('data', (chunk) => (output += chunk));
		child.on('error', (error) => {
			output += `${command[0]}: ${error.message}\n`;
		});
		child.on('close', (code, signal) => {
			running.delete(child);
			done({ code: code ?? (signal ? 1 : 0), output });
		});
	});
}

function parseStages(argv) {
	const names = argv.length > 0 ? argv : Object.keys(STAGES);
	const unknown = names.filter((name) => !(name in STAGES));
	if (unknown.length > 0) {
		throw new Error(`unknown stage ${unknown.join(', ')}; stages: ${Object.keys(STAGES).join(', ')}`);
	}
	return names;
}

/** The one build the chosen stages need: the test build includes dist. */
function buildFor(names) {
	const kinds = new Set(names.map((name) => STAGES[name].build).filter(Boolean));
	return kinds.has('tests') ? node('scripts/build.mjs', '--tests') : kinds.has('dist') ? node('scripts/build.mjs') : undefined;
}

/** Stops at once when a needed system package is missing and cannot be installed here. */
function checkSystem(names) {
	const needs = new Set(names.map((name) => STAGES[name].needs).filter(Boolean));
	if (needs.size === 0) {
		return;
	}
	const plan = systemPlan({ codeServer: needs.has('code-server') && !existsSync(codeServerReadyMarker) });
	if (plan.kind === 'stop') {
		throw new Error(plan.message);
	}
}

/** Installs or checks Chromium (and code-server): 0, or 1 with the reason printed. */
function setUp(codeServer) {
	try {
		ensureHarnessInstalled({ codeServer });
		return 0;
	} catch (error) {
		console.error(`[setup] ${error.message}`);
		return 1;
	}
}

class TestRun {
	startedAt = Date.now();
	timings = [];
	failed = undefined;

	/** Runs one step, records its time, and remembers the first failure. */
	async step(label, action, { announce = true } = {}) {
		if (announce) {
			say(`── ${label}`);
		}
		const since = Date.now();
		const code = await action();
		this.timings.push({ label, since, ms: Date.now() - since, ok: code === 0 });
		if (code !== 0) {
			this.failed ??= label;
		}
		return code;
	}

	/** The static checks, one after the other, alongside the rest; each one's output shown when it ends. */
	async alongside(names) {
		for (const name of names) {
			if (this.failed) {
				return;
			}
			await this.step(name, async () => {
				const { code, output } = await run(STAGES[name].command, { capture: true });
				say(`── ${name} (ran alongside): ${code === 0 ? 'ok' : 'FAILED'}`);
				process.stdout.write(output);
				return code;
			}, { announce: false });
		}
	}

	/** The build, then the test stages in order, each after the setup it needs. */
	async inOrder(names, build) {
		if (build && (await this.step('build', () => run(build).then((r) => r.code))) !== 0) {
			return;
		}
		const ready = new Set();
		for (const name of names) {
			const stage = STAGES[name];
			if (this.failed) {
				return;
			}
			if (stage.needs && !ready.has(stage.needs)) {
				const codeServer = stage.needs === 'code-server';
				if ((await this.step(`setup (${codeServer ? 'Chromium, code-server' : 'Chromium'})`, () => setUp(codeServer))) !== 0) {
					return;
				}
				ready.add('chromium').add(stage.needs);
			}
			await this.step(name, () => run(stage.command, { env: build && stage.prebuiltEnv ? stage.prebuiltEnv : {} }).then((r) => r.code));
		}
	}

	report() {
		say('── times');
		for (const { label, ms, ok } of this.timings.sort((a, b) => a.since - b.since)) {
			say(`${label.padEnd(32)} ${seconds(ms).padStart(12)}  ${ok ? 'ok' : 'FAILED'}`);
		}
		say(`${'total'.padEnd(32)} ${seconds(Date.now() - this.startedAt).padStart(12)}  ${this.failed ? `FAILED at ${this.failed}` : 'ok'}`);
	}
}

async function main() {
	const names = parseStages(process.argv.slice(2));
	checkSystem(names);
	const testRun = new TestRun();
	const alongside = testRun.alongside(names.filter((name) => STAGES[name].alongside));
	await testRun.inOrder(names.filter((name) => !STAGES[name].alongside), buildFor(names));
	if (testRun.failed) {
		// No point in waiting for the static checks of a run that has already failed.
		for (const child of running) {
			child.kill();
		}
	}
	await alongside;
	testRun.report();
	return testRun.failed ? 1 : 0;
}

main().then((code) => {
	process.exitCode = code;
}, (error) => {
	console.error(`[test] ${error.message}`);
	process.exitCode = 1;
});
