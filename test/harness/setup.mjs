#!/usr/bin/env node
// Installs what the real-VS-Code harness needs, from Debian packages and the npm registry only:
//   Debian: chromium (the workbench window and the preview-page tests), and for building code-server:
//           ripgrep, libkrb5-dev, build tools (systemPackages.mjs). Installed with apt-get as root; otherwise
//           setup stops at once and names the exact packages.
//   npm:    code-server (VS Code server + web workbench + Node extension host) into .vscode-test/ (git-ignored).
// Idempotent: a finished install leaves a `.ok` marker and later runs only check for Chromium.
//   node test/harness/setup.mjs              Chromium and the selected code-server (PI_CONDENSE_VSCODE=current|oldest)
//   node test/harness/setup.mjs --all        Chromium and every code-server the suites run on
//   node test/harness/setup.mjs --versions=4.139.1,4.100.3   Chromium and those code-servers
//   node test/harness/setup.mjs --chromium   Chromium only (the preview-page tests in test/browser)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { chromiumPath } from './chromium.mjs';
import { codeServerInstallOf, codeServerVersion, codeServerVersions, removeDir } from './lib.mjs';
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

/** Installs code-server `version` into its folder under .vscode-test/, unless a finished install is there. */
function ensureCodeServer(version) {
	const { dir, readyMarker, nodeFile } = codeServerInstallOf(version);
	if (existsSync(readyMarker)) {
		return;
	}
	const startedAt = Date.now();
	say(`installing code-server ${version} into ${dir} (a minute or two, once)`);
	removeDir(dir);
	mkdirSync(dir, { recursive: true });
	const nodeBin = installCodeServer(dir, version, say);
	if (nodeBin !== process.execPath) {
		writeFileSync(nodeFile, nodeBin + '\n');
	}
	writeFileSync(readyMarker, `${version}\n`);
	const size = spawnSync('du', ['-sh', dir], { encoding: 'utf8' }).stdout.split('\t')[0];
	say(`code-server ${version} ready in ${Math.round((Date.now() - startedAt) / 1000)} s (${size})`);
}

/**
 * Makes sure Chromium (and, unless `codeServer` is false, each code-server of `versions`: by default the one
 * this run's PI_CONDENSE_VSCODE selects) is there; installs what is missing when it can. Throws with what to do
 * when it cannot.
 */
export function ensureHarnessInstalled({ codeServer = true, versions = [codeServerVersion] } = {}) {
	const missing = codeServer ? versions.filter((version) => !existsSync(codeServerInstallOf(version).readyMarker)) : [];
	const plan = systemPlan({ codeServer: missing.length > 0 });
	if (plan.kind === 'stop') {
		throw new Error(plan.message);
	}
	if (plan.kind === 'install') {
		installDebianPackages(plan.packages);
	}
	for (const version of missing) {
		ensureCodeServer(version);
	}
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
	const chromiumOnly = process.argv.includes('--chromium');
	// --all: every VS Code the suites run on (current and oldest), not only the selected one; --versions=a,b those.
	const listed = process.argv.find((arg) => arg.startsWith('--versions='))?.slice('--versions='.length).split(',').filter(Boolean);
	const versions = listed ?? (process.argv.includes('--all') ? Object.values(codeServerVersions) : [codeServerVersion]);
	try {
		ensureHarnessInstalled({ codeServer: !chromiumOnly, versions });
		const ready = versions.map((version) => readFileSync(codeServerInstallOf(version).readyMarker, 'utf8').trim()).join(', ');
		say(chromiumOnly ? `ok: Chromium ${chromiumPath()}` : `ok: code-server ${ready}, Chromium ${chromiumPath()}`);
	} catch (error) {
		console.error(`[setup] ${error.message}`);
		process.exit(1);
	}
}
