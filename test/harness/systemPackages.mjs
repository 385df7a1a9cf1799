// Which Debian packages the harness still needs, and what to do about them: install them (root with apt-get)
// or stop at once with the exact command. The probes are parameters so that a unit test can play a machine
// without Chromium, or a user without root, without touching this one. No import.meta: the tests bundle it.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromiumPath, chromiumPathIsCustom, noChromiumMessage } from './chromium.mjs';

/** What setup looks at on this machine. */
export const machineProbe = {
	hasCommand: (command) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0,
	hasDebianPackage: (name) => spawnSync('dpkg', ['-s', name], { stdio: 'ignore' }).status === 0,
	exists: existsSync,
	isRoot: () => typeof process.getuid === 'function' && process.getuid() === 0,
	chromiumPath,
	chromiumPathIsCustom,
};

/** Debian packages missing for what is asked: Chromium, and when code-server is still to be built, its build needs. */
export function missingDebianPackages({ codeServer }, probe = machineProbe) {
	const missing = [];
	if (!probe.exists(probe.chromiumPath()) && !probe.chromiumPathIsCustom()) {
		missing.push('chromium');
	}
	if (codeServer) {
		if (!probe.hasCommand('rg')) {
			missing.push('ripgrep'); // stands in for the rg that @vscode/ripgrep would download from GitHub
		}
		if (!probe.hasDebianPackage('libkrb5-dev')) {
			missing.push('libkrb5-dev'); // headers for the kerberos native module
		}
		if (!probe.hasCommand('g++') || !probe.hasCommand('make')) {
			missing.push('build-essential');
		}
		if (!probe.hasCommand('python3')) {
			missing.push('python3');
		}
		if (!probe.hasCommand('pkg-config')) {
			missing.push('pkg-config');
		}
	}
	return missing;
}

/**
 * What to do before the suites that need Chromium (and code-server when `codeServer`):
 * `{ kind: 'ready' }`, `{ kind: 'install', packages }` (root with apt-get), or `{ kind: 'stop', message }`.
 */
export function systemPlan({ codeServer }, probe = machineProbe) {
	if (probe.chromiumPathIsCustom() && !probe.exists(probe.chromiumPath())) {
		return { kind: 'stop', message: noChromiumMessage(probe.chromiumPath(), true) };
	}
	const packages = missingDebianPackages({ codeServer }, probe);
	if (packages.length === 0) {
		return { kind: 'ready' };
	}
	if (probe.isRoot() && probe.hasCommand('apt-get')) {
		return { kind: 'install', packages };
	}
	const command = `sudo apt-get install -y ${packages.join(' ')}`;
	return {
		kind: 'stop',
		message: `missing system packages: ${packages.join(' ')} (${packages.includes('chromium') ? 'Chromium drives the preview-page and VS Code tests' : 'needed to build code-server'}).\n`
			+ `Install them (Debian/Ubuntu: ${command}), then run again.`,
	};
}
