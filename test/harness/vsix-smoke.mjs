#!/usr/bin/env node
// Installs the packaged .vsix (what a user gets, not the development folder) into a fresh code-server with
// `--install-extension`, opens the workbench in headless Chromium, and checks that the extension activates
// and shows its views on a temporary Pi agent dir holding a real pi-condense session. The installed pi-ai worker
// (the extension's only way to pi-ai) is asked a model lookup, so a bundle left out of the package fails here; the
// installed bridge (what Connect copies into Pi) is loaded into a real Pi 1.6.0 and must write its record.
//   node test/harness/vsix-smoke.mjs [path/to/extension.vsix]   (default: packages one with scripts/package.mjs)
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { exitWhenClosed, installVsix, launchChromium, makeTempDir, projectRoot, removeDir, sleep, startCodeServer } from './lib.mjs';
import { workbenchUrl } from './workbenchRun.mjs';
import { assembleReferenceFolders, copySession } from '../support/referenceFolders.mjs';
import { ensureHarnessInstalled } from './setup.mjs';
import { checkBridgeLoadsInPi } from './bridgeInPi.mjs';

const extensionId = 'pi-condense.pi-condense-vscode';

function packagedVsix(tempDir) {
	if (process.argv[2]) {
		return process.argv[2];
	}
	const out = join(tempDir, 'pi-condense-vscode.vsix');
	execFileSync(process.execPath, [join(projectRoot, 'scripts', 'package.mjs'), out], { stdio: 'inherit' });
	return out;
}

/** A Pi agent dir with one real session written by Pi + pi-condense (and its blobs), and no settings. */
function agentDirWithSession(dir) {
	copySession(join(assembleReferenceFolders(projectRoot), 'basic', 'session.jsonl'), join(dir, 'sessions'), { withBlobs: true });
	return dir;
}

function activationLogged(userDataDir) {
	const logs = [];
	const walk = (dir) => {
		for (const entry of existsSync(dir) ? readdirSync(dir, { withFileTypes: true }) : []) {
			const path = join(dir, entry.name);
			if (entry.isDirectory()) {
				walk(path);
			} else if (entry.name.endsWith('exthost.log')) {
				logs.push(readFileSync(path, 'utf8'));
			}
		}
	};
	walk(join(userDataDir, 'logs'));
	// e.g. `ExtensionService#_doActivateExtension pi-condense.pi-condense-vscode, startup: false, activationEvent: 'onView:piCondense.sessions'`
	return logs.some((log) => log.split('\n').some((line) => line.includes(`_doActivateExtension ${extensionId}`)));
}

/** The installed manifest's icon: a PNG of 128 × 128 in the package (read from its IHDR chunk). */
function installedIcon(extensionDir) {
	const manifest = JSON.parse(readFileSync(join(extensionDir, 'package.json'), 'utf8'));
	const path = join(extensionDir, manifest.icon ?? '');
	if (typeof manifest.icon !== 'string' || !manifest.icon.endsWith('.png') || !existsSync(path)) {
		throw new Error(`the installed extension has no PNG icon (package.json icon: ${JSON.stringify(manifest.icon)})`);
	}
	const png = readFileSync(path);
	const [width, height] = [png.readUInt32BE(16), png.readUInt32BE(20)];
	if (png.toString('latin1', 12, 16) !== 'IHDR' || width !== 128 || height !== 128) {
		throw new Error(`${manifest.icon} is not a 128 × 128 PNG (${width} × ${height})`);
	}
	return `${manifest.icon}, ${width} × ${height}`;
}

/**
 * Asks the installed `dist/pi-ai-worker.js` (which loads the installed `dist/pi-ai.js`, the bundled pi-ai) for a
 * model only today's catalog has; it says which pi-ai answered before it answers.
 */
async function askInstalledWorker(extensionDir, agentDir) {
	const worker = new Worker(join(extensionDir, 'dist', 'pi-ai-worker.js'));
	try {
		const messages = [];
		const answer = await new Promise((resolve, reject) => {
			worker.on('message', (message) => {
				messages.push(message);
				if (message.type === 'answer' || message.type === 'failure') {
					resolve(message);
				}
			});
			worker.once('error', reject);
			const policy = { allowed: false, reason: 'the .vsix check asks the bundled one' };
			worker.postMessage({ type: 'facts', id: 0, policy, agentDir, provider: 'anthropic', modelId: 'claude-sonnet-5' });
		});
		const library = messages.find((message) => message.type === 'library')?.origin;
		if (answer.type !== 'answer' || !(answer.value?.contextWindow > 0) || library?.kind !== 'bundled') {
			throw new Error(`the installed pi-ai worker did not answer a model lookup with the bundled pi-ai: ${JSON.stringify(messages)}`);
		}
		return library;
	} finally {
		await worker.terminate();
	}
}

async function main() {
	ensureHarnessInstalled();
	const temp = makeTempDir('pi-condense-vsix-');
	const vsix = packagedVsix(temp);
	const agentDir = agentDirWithSession(join(temp, 'agent'));
	const workspace = join(temp, 'workspace');
	mkdirSync(workspace, { recursive: true });
	const server = await startCodeServer({ workspace, env: { PI_CODING_AGENT_DIR: agentDir } });
	let browser;
	try {
		installVsix(server, vsix);
		const installed = readdirSync(server.extensionsDir).filter((name) => name.startsWith(extensionId));
		if (installed.length !== 1) {
			throw new Error(`expected the extension in ${server.extensionsDir}, found: ${installed.join(', ') || 'nothing'}`);
		}
		const icon = installedIcon(join(server.extensionsDir, installed[0]));
		const library = await askInstalledWorker(join(server.extensionsDir, installed[0]), agentDir);
		// The bridge "Connect Pi to VS Code" copies from the installed extension: it must load in a real Pi.
		const bridge = await checkBridgeLoadsInPi(join(server.extensionsDir, installed[0], 'dist', 'bridge'));
		browser = await launchChromium();
		const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
		await page.goto(workbenchUrl(server, { workspace }));
		await page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
		await page.locator('.activitybar .action-item a[aria-label^="Pi Condense"]').first().click({ timeout: 60_000 });
		// With a single view in the container VS Code hides the pane header and shows the view in the title.
		await page.locator('.part.sidebar .pane-header[aria-label="Pi Sessions Section"]').first().waitFor({ state: 'attached', timeout: 30_000 });
		await page.locator('.part.sidebar .title-label', { hasText: /Pi Condense/i }).first().waitFor({ timeout: 30_000 });
		for (const deadline = Date.now() + 60_000; !activationLogged(server.userDataDir);) {
			if (Date.now() > deadline) {
				throw new Error('the packaged extension did not activate within 60 s (no activation in the extension host log)');
			}
			await sleep(200);
		}
		console.log(`[vsix] ${installed[0]} installed from ${vsix} (icon ${icon}), activated, "Pi Sessions" view shown, its pi-ai worker answered with ${library.piAiName} ${library.piAiVersion} (bundled), its bridge ran in Pi 1.6.0 (${bridge})`);
		console.log('vsix: 1 passed, 0 failed');
	} finally {
		await browser?.close();
		await server.stop();
		removeDir(temp);
	}
}

await main().then(() => exitWhenClosed(0), (error) => {
	console.error(`[vsix] FAILED: ${error instanceof Error ? error.message : String(error)}`);
	console.log('vsix: 0 passed, 1 failed');
	return exitWhenClosed(1);
});
