#!/usr/bin/env node
// Installs what the real-VS-Code harness needs, from Debian packages and the npm registry only:
//   Debian: chromium (the workbench window and the preview-page tests), and for building code-server:
//           ripgrep, libkrb5-dev, build tools (systemPackages.mjs). Installed with apt-get as root; otherwise
//           setup stops at once and names the exact packages.
//   npm:    code-server (VS Code server + web workbench + Node extension host) into .vscode-test/ (git-ignored).
// Idempotent: a finished install leaves a `.ok` marker and later runs only check for Chromium.
//   node test/harness/setup.mjs              Chromium and code-server (the integration, UI, .vsix and start tests)
//   node test/harness/setup.mjs --chromium   Chromium only (the preview-page tests in test/browser)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromiumPath } from './chromium.mjs';
import { codeServerDir, codeServerNodeFile, codeServerReadyMarker, codeServerVersion, removeDir } from './lib.mjs';
import { installCodeServer } from './codeServerInstall.mjs';
import { systemPlan } from './systemPackages.mjs';

const say = (message) => console.log(`[setup] ${message}`);

function installDebianPackages(packages) {
	say(`apt-get install ${packages.join(' ')}`);
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	for (const args of [['update', '-qq'], ['install', '-y', '-qq', ...packages]]) {
		const result = spawnSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'], env });
		if (result.status !== 0) {
			throw new Error(`apt-get ${args.join(' ')} failed (exit ${result.status})`);
		}
	}
}

/**
 * Makes sure Chromium (and, unless `codeServer` is false, code-server) is there; installs what is missing
 * when it can. Throws with what to do when it cannot.
 */
export function ensureHarnessInstalled({ codeServer = true } = {}) {
	const installed = !codeServer || existsSync(codeServerReadyMarker);
	const plan = systemPlan({ codeServer: !installed });
	if (plan.kind === 'stop') {
		throw new Error(plan.message);
	}
	if (plan.kind === 'install') {
		installDebianPackages(plan.packages);
	}
	if (installed) {
		return;
	}
	const startedAt = Date.now();
	say(`installing code-server ${codeServerVersion} into ${codeServerDir} (about a minute, once)`);
	removeDir(codeServerDir);
	mkdirSync(codeServerDir, { recursive: true });
	const nodeBin = installCodeServer(codeServerDir, codeServerVersion, say);
	if (nodeBin !== process.execPath) {
		writeFileSync(codeServerNodeFile, nodeBin + '\n');
	}
	writeFileSync(codeServerReadyMarker, `${codeServerVersion}\n`);
	const size = spawnSync('du', ['-sh', codeServerDir], { encoding: 'utf8' }).stdout.split('\t')[0];
	say(`code-server ${codeServerVersion} ready in ${Math.round((Date.now() - startedAt) / 1000)} s (${size})`);
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
	const chromiumOnly = process.argv.includes('--chromium');
	try {
		ensureHarnessInstalled({ codeServer: !chromiumOnly });
		say(chromiumOnly ? `ok: Chromium ${chromiumPath()}` : `ok: code-server ${readFileSync(join(codeServerDir, '.ok'), 'utf8').trim()}, Chromium ${chromiumPath()}`);
	} catch (error) {
		console.error(`[setup] ${error.message}`);
		process.exit(1);
	}
}
