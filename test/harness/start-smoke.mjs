#!/usr/bin/env node
// Checks command 1 of the README (`npm start`) end to end: with an agent dir that holds no session, it must
// build, fall back to generated demo sessions, start code-server on 127.0.0.1, print the URL, and show the
// sessions in the Pi Condense views of the real workbench; Ctrl-C (SIGINT) must stop everything it started.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { exitWhenClosed, launchChromium, makeTempDir, projectRoot, removeDir, sleep, within } from './lib.mjs';
import { ensureHarnessInstalled } from './setup.mjs';

const urlLine = /^\s+(http:\/\/127\.0\.0\.1:\d+\/\S+)$/m;

function groupAlive(pid) {
	try {
		process.kill(-pid, 0);
		return true;
	} catch {
		return false;
	}
}

async function main() {
	ensureHarnessInstalled();
	const temp = makeTempDir('pi-condense-start-');
	const start = spawn(process.execPath, [join(projectRoot, 'scripts', 'start.mjs')], {
		cwd: projectRoot,
		detached: true, // its own process group, so we can check nothing of it survives
		stdio: ['ignore', 'pipe', 'pipe'],
		env: {
			...process.env,
			PI_CODING_AGENT_DIR: join(temp, 'empty-agent'),
			PI_CONDENSE_DEMO_DIR: join(temp, 'demo-agent'),
			PI_CONDENSE_CODE_SERVER: '1',
			BROWSER: 'none',
		},
	});
	let output = '';
	start.stdout.on('data', (chunk) => (output += chunk));
	start.stderr.on('data', (chunk) => (output += chunk));
	const exited = new Promise((done) => start.once('exit', (code, signal) => done({ code, signal })));
	let browser;
	try {
		let url;
		for (const since = Date.now(); !(url = urlLine.exec(output)?.[1]);) {
			if (start.exitCode !== null || Date.now() - since > 240_000) {
				throw new Error(`npm start printed no URL:\n${output}`);
			}
			await sleep(200);
		}
		if (!/showing demo sessions/.test(output)) {
			throw new Error(`npm start did not fall back to the demo sessions:\n${output}`);
		}
		console.log(`[start] URL printed: ${url.slice(0, 60)}…`);
		browser = await launchChromium();
		const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
		await page.goto(url);
		await page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
		await page.locator('.activitybar .action-item a[aria-label^="Pi Condense"]').first().click({ timeout: 60_000 });
		const row = (text) => page.locator('.part.sidebar .monaco-list-row', { hasText: text }).first();
		await row('invoice-service').waitFor({ timeout: 30_000 });
		// Projects other than the open workspace's start collapsed: open it (as its twistie says, not by whether
		// its sessions are drawn yet: a click while they load would fold it), then select the session.
		// Not the invoice-service-api project: Playwright trims a string's trailing space, and the list's
		// DOM order need not be the order shown, so only an exact pattern finds the right row.
		const project = row(/\/projects\/invoice-service(?!-)/);
		await project.waitFor({ timeout: 30_000 });
		if (await project.getAttribute('aria-expanded') === 'false') {
			await project.click();
		}
		await row('Fix the flaky invoice date test').click({ timeout: 30_000 });
		// A summary row of Pruned Calls, labelled by its refs and sizes (`t1–t3 · 27.9k → 291`).
		await page.locator('.part.sidebar .monaco-list-row', { hasText: /\bt\d+(–t\d+)? · [\d.]+k? → [\d.]+k?/ }).first().waitFor({ timeout: 30_000 });
		console.log('[start] the workbench shows the demo sessions and their pruned calls');
		await browser.close();
		browser = undefined;
		process.kill(start.pid, 'SIGINT');
		const result = await within(exited, 20_000);
		if (!result) {
			throw new Error('npm start did not stop on Ctrl-C (SIGINT)');
		}
		// Its children end on their own after it: give them the time a loaded machine takes, no more.
		for (const deadline = Date.now() + 20_000; groupAlive(start.pid) && Date.now() < deadline;) {
			await sleep(100);
		}
		if (groupAlive(start.pid)) {
			throw new Error('processes started by npm start outlived Ctrl-C by 20 s');
		}
		console.log('[start] Ctrl-C stopped code-server and everything it started');
		console.log('start: 1 passed, 0 failed');
	} finally {
		await browser?.close();
		if (groupAlive(start.pid)) {
			process.kill(-start.pid, 'SIGKILL');
		}
		removeDir(temp);
	}
}

await main().then(() => exitWhenClosed(0), (error) => {
	console.error(`[start] FAILED: ${error instanceof Error ? error.message : String(error)}`);
	console.log('start: 0 passed, 1 failed');
	return exitWhenClosed(1);
});
