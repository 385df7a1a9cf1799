/**
 * The file VS Code loads as `extensionTestsPath`: runs every integration test bundled next to it
 * (`**\/*.test.js` under out/test/integration) with mocha inside the real extension host, then prints one
 * result line the harness (test/harness/run-integration.mjs) reads for its summary.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import Mocha from 'mocha';
import * as vscode from 'vscode';

/** Prefix of the line carrying the counts; run-integration.mjs matches it. */
const resultPrefix = 'pi-condense-integration-result ';

/** The restricted-mode tests (in restricted/) run only in the harness's `--restricted` run, and only they run there. */
const RESTRICTED_DIR = 'restricted';

function findTestFiles(dir: string): string[] {
	const found: string[] = [];
	for (const entry of readdirSync(dir, { withFileTypes: true })) {
		const path = join(dir, entry.name);
		if (entry.isDirectory() && entry.name === RESTRICTED_DIR) {
			continue;
		} else if (entry.isDirectory()) {
			found.push(...findTestFiles(path));
		} else if (entry.name.endsWith('.test.js')) {
			found.push(path);
		}
	}
	// The large-session test leaves a 40 MB session in the store's cache, so every later settings change
	// recomputes it for seconds: it runs after the others. The shutdown test deactivates the extension: last.
	const last = (path: string): number => (path.endsWith('shutdown.test.js') ? 2 : path.endsWith('largeSession.test.js') ? 1 : 0);
	return found.sort((a, b) => last(a) - last(b) || a.localeCompare(b));
}

export function run(): Promise<void> {
	console.log(`[integration] VS Code ${vscode.version}, extension host on Node ${process.version}`);
	// PI_CONDENSE_TEST_GREP=secrets npm run test:integration runs only the matching tests.
	const grep = process.env['PI_CONDENSE_TEST_GREP'];
	const mocha = new Mocha({ ui: 'bdd', reporter: 'spec', color: false, timeout: 30_000, ...(grep ? { grep } : {}) });
	const restricted = process.env['PI_CONDENSE_TEST_RESTRICTED'] === '1';
	// The flush tests run the commands as a script would; the confirmation test (honestPruning.test.ts) turns it back on.
	mocha.suite.beforeAll('piCondense.confirmPrune off', async () => {
		await vscode.workspace.getConfiguration('piCondense').update('confirmPrune', false, vscode.ConfigurationTarget.Global);
	});
	for (const file of findTestFiles(restricted ? join(__dirname, RESTRICTED_DIR) : __dirname)) {
		mocha.addFile(file);
	}
	return new Promise((resolve, reject) => {
		const runner = mocha.run((failures) => {
			const stats = runner.stats;
			const counts = { passed: stats?.passes ?? 0, failed: stats?.failures ?? failures, pending: stats?.pending ?? 0 };
			console.log(resultPrefix + JSON.stringify(counts));
			if (failures > 0) {
				reject(new Error(`${failures} integration test(s) failed`));
			} else {
				resolve();
			}
		});
	});
}
