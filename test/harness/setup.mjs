#!/usr/bin/env node
// Installs what the real-VS-Code harness needs, from Debian packages and the npm registry only:
//   Debian: chromium (the workbench window), and for building code-server: ripgrep, libkrb5-dev, build tools.
//   npm:    code-server (VS Code server + web workbench + Node extension host) into .vscode-test/ (git-ignored).
// Idempotent: a finished install leaves a `.ok` marker and later runs only check for Chromium.
//   node test/harness/setup.mjs
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromiumPath, codeServerDir, codeServerNodeFile, codeServerReadyMarker, codeServerVersion, removeDir } from './lib.mjs';
import { installCodeServer } from './codeServerInstall.mjs';

const say = (message) => console.log(`[setup] ${message}`);
const has = (command) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
const hasDebianPackage = (name) => spawnSync('dpkg', ['-s', name], { stdio: 'ignore' }).status === 0;

/** Debian packages missing for what is left to do (only Chromium once code-server is installed). */
function missingDebianPackages(installingCodeServer) {
	const missing = [];
	if (!existsSync(chromiumPath)) {
		missing.push('chromium');
	}
	if (installingCodeServer) {
		if (!has('rg')) {
			missing.push('ripgrep'); // stands in for the rg that @vscode/ripgrep would download from GitHub
		}
		if (!hasDebianPackage('libkrb5-dev')) {
			missing.push('libkrb5-dev'); // headers for the kerberos native module
		}
		if (!has('g++') || !has('make')) {
			missing.push('build-essential');
		}
		if (!has('python3')) {
			missing.push('python3');
		}
		if (!has('pkg-config')) {
			missing.push('pkg-config');
		}
	}
	return missing;
}

function installDebianPackages(packages) {
	const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
	if (!isRoot || !has('apt-get')) {
		throw new Error(`missing system packages: ${packages.join(' ')}.\n`
			+ `Install them (Debian/Ubuntu: sudo apt-get install -y ${packages.join(' ')}), then run again.`);
	}
	say(`apt-get install ${packages.join(' ')}`);
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	for (const args of [['update', '-qq'], ['install', '-y', '-qq', ...packages]]) {
		const result = spawnSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'], env });
		if (result.status !== 0) {
			throw new Error(`apt-get ${args.join(' ')} failed (exit ${result.status})`);
		}
	}
}

/** Makes sure code-server and Chromium are there; installs what is missing. Throws with a clear message. */
export function ensureHarnessInstalled() {
	const installed = existsSync(codeServerReadyMarker);
	const missing = missingDebianPackages(!installed);
	if (missing.length > 0) {
		installDebianPackages(missing);
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
	try {
		ensureHarnessInstalled();
		say(`ok: code-server ${readFileSync(join(codeServerDir, '.ok'), 'utf8').trim()}, Chromium ${chromiumPath}`);
	} catch (error) {
		console.error(`[setup] ${error.message}`);
		process.exit(1);
	}
}
