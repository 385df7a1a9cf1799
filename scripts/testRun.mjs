// One `npm test` run (scripts/test.mjs): runs stages as child processes, each in its own process group so
// that stopping one reaches everything it started; keeps each stage's time; after the first failure starts
// nothing more and stops what is still running; prints the times at the end.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { codeServerInstallOf } from '../test/harness/lib.mjs';
import { ensureHarnessInstalled } from '../test/harness/setup.mjs';
import { ensurePiNode } from '../test/harness/piNode.mjs';

const say = (message) => console.log(`[test] ${message}`);
const seconds = (ms) => (ms >= 60_000 ? `${Math.floor(Math.round(ms / 1000) / 60)} min ${Math.round(ms / 1000) % 60} s` : `${(ms / 1000).toFixed(1)} s`);

export class TestRun {
	startedAt = Date.now();
	timings = [];
	failed = undefined;
	groups = new Set();
	ready = new Set();

	constructor({ cwd, stages, prebuilt, codeServers }) {
		this.cwd = cwd;
		this.stages = stages;
		this.prebuilt = prebuilt;
		this.codeServers = codeServers;
		for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]]) {
			process.on(signal, () => {
				this.stopAll(signal);
				process.exit(code);
			});
		}
	}

	/** The stages one after the other; `live` shows their output as it comes, else when each ends. */
	async lane(names, { live }) {
		for (const name of names) {
			if (this.failed) {
				return;
			}
			await this.stage(name, { command: this.stages[name].command, env: this.envOf(name) }, { live });
		}
	}

	/** What a stage's process gets on top of ours. */
	envOf(name) {
		const stage = this.stages[name];
		// PI_CONDENSE_VSCODE: which VS Code the harness starts (test/harness/lib.mjs).
		return { ...(stage.vscode ? { PI_CONDENSE_VSCODE: stage.vscode } : {}), ...(this.prebuilt ? stage.prebuiltEnv : {}) };
	}

	async stage(label, { command, env = {} }, { live }) {
		say(live ? `── ${label}` : `── ${label} (its output follows when it ends)`);
		const since = Date.now();
		const { code, output } = await this.spawn(command, env, !live);
		const result = code === 0 ? 'ok' : this.failed ? 'stopped' : 'FAILED';
		if (!live) {
			// On a line of its own: a live stage may be in the middle of one (mocha's dots).
			console.log();
			say(`── ${label}: ${result}`);
			process.stdout.write(output);
		}
		this.timings.push({ label, since, ms: Date.now() - since, result });
		if (result === 'FAILED') {
			this.failed = label;
			this.stopAll('SIGTERM');
		}
	}

	/**
	 * Installs or checks what the stages need before they start (synchronously): the Node for Pi 1.x and
	 * Chromium. code-server, which takes minutes the first time, is installed by the first stage of the lane
	 * that needs it (`codeServerSetup`), so that the other lanes go on meanwhile. False when it cannot.
	 */
	setUp(names) {
		if (!this.ready.has('pi-node') && names.some((name) => this.stages[name].needs === 'pi-node')) {
			const since = Date.now();
			try {
				ensurePiNode(this.cwd, (message) => say(message));
				this.ready.add('pi-node');
				this.timings.push({ label: 'setup (Node for Pi 1.x)', since, ms: Date.now() - since, result: 'ok' });
			} catch (error) {
				return this.setupFailed('setup (Node for Pi 1.x)', since, error);
			}
		}
		if (!this.ready.has('chromium') && names.some((name) => ['chromium', 'code-server'].includes(this.stages[name].needs))) {
			say('── setup (Chromium)');
			const since = Date.now();
			try {
				ensureHarnessInstalled({ codeServer: false });
				this.ready.add('chromium');
				this.timings.push({ label: 'setup (Chromium)', since, ms: Date.now() - since, result: 'ok' });
			} catch (error) {
				return this.setupFailed('setup (Chromium)', since, error);
			}
		}
		return true;
	}

	setupFailed(label, since, error) {
		console.error(`[setup] ${error.message}`);
		this.timings.push({ label, since, ms: Date.now() - since, result: 'FAILED' });
		this.failed = label;
		return false;
	}

	/** The lane's stages after the install of the code-servers they need, when one is missing. */
	async laneWithSetup(names, { live }) {
		await this.codeServerSetup(names, { live });
		await this.lane(names, { live });
	}

	/** Installs the code-servers these stages run on that are missing, as a stage of its own (a child process). */
	async codeServerSetup(names, { live }) {
		const missing = names.some((name) => this.stages[name].needs === 'code-server')
			? this.codeServers.filter((version) => !existsSync(codeServerInstallOf(version).readyMarker))
			: [];
		if (missing.length > 0 && !this.failed) {
			const command = [process.execPath, join(this.cwd, 'test', 'harness', 'setup.mjs'), `--versions=${missing.join(',')}`];
			await this.stage(`setup (code-server ${missing.join(', ')})`, { command }, { live });
		}
	}

	spawn(command, env, capture) {
		return new Promise((done) => {
			const child = spawn(command[0], command.slice(1), {
				cwd: this.cwd, detached: true, env: { ...process.env, ...env }, stdio: ['ignore', capture ? 'pipe' : 'inherit', capture ? 'pipe' : 'inherit'],
			});
			this.groups.add(child.pid);
			let output = '';
			child.stdout?.on('data', (chunk) => (output += chunk));
			child.stderr?.on('data', (chunk) => (output += chunk));
			child.on('error', (error) => (output += `${command[0]}: ${error.message}\n`));
			child.on('close', (code, signal) => {
				this.groups.delete(child.pid);
				done({ code: code ?? (signal ? 1 : 0), output });
			});
		});
	}

	/** Signals every stage still running, with all it started in its group. */
	stopAll(signal) {
		for (const pid of this.groups) {
			try {
				process.kill(-pid, signal);
			} catch {
				// The group is already gone.
			}
		}
	}

	report() {
		say('── times');
		for (const { label, ms, result } of this.timings.sort((a, b) => a.since - b.since)) {
			say(`${label.padEnd(32)} ${seconds(ms).padStart(12)}  ${result}`);
		}
		say(`${'total'.padEnd(32)} ${seconds(Date.now() - this.startedAt).padStart(12)}  ${this.failed ? `FAILED at ${this.failed}` : 'ok'}`);
	}
}
