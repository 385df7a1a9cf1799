/**
 * What `npm test` does about Chromium and code-server's system packages before the first suite that
 * needs them (test/harness/systemPackages.mjs), on machines played by a probe: this one is never
 * changed. As root with apt-get it installs what is missing; otherwise it stops at once with the
 * exact packages to install; a CHROMIUM_PATH pointing nowhere stops it whoever runs it.
 */
import assert from 'node:assert/strict';
import { machineProbe, systemPlan, type MachineProbe } from '../../harness/systemPackages.mjs';

interface Machine {
	readonly root?: boolean;
	readonly commands?: readonly string[];
	readonly debianPackages?: readonly string[];
	readonly chromium?: boolean;
	readonly chromiumPath?: string;
}

const EVERYTHING = ['rg', 'g++', 'make', 'python3', 'pkg-config', 'apt-get'];

function probe(machine: Machine): MachineProbe {
	const path = machine.chromiumPath ?? '/usr/bin/chromium';
	return {
		hasCommand: (command) => (machine.commands ?? EVERYTHING).includes(command),
		hasDebianPackage: (name) => (machine.debianPackages ?? ['libkrb5-dev']).includes(name),
		exists: (candidate) => candidate === path && (machine.chromium ?? true),
		isRoot: () => machine.root ?? false,
		chromiumPath: () => path,
		chromiumPathIsCustom: () => machine.chromiumPath !== undefined,
	};
}

describe('harness setup: system packages', () => {
	it('needs nothing on a machine that has Chromium and the build tools', () => {
		assert.deepEqual(systemPlan({ codeServer: true }, probe({})), { kind: 'ready' });
	});

	it('installs the missing packages as root', () => {
		const plan = systemPlan({ codeServer: true }, probe({ root: true, chromium: false, commands: ['apt-get', 'g++', 'make', 'python3', 'pkg-config'] }));
		assert.deepEqual(plan, { kind: 'install', packages: ['chromium', 'ripgrep'] });
	});

	it('stops at once without root, naming the exact packages and the command', () => {
		const plan = systemPlan({ codeServer: true }, probe({ chromium: false, commands: ['apt-get', 'python3'], debianPackages: [] }));
		assert.equal(plan.kind, 'stop');
		assert.match(plan.kind === 'stop' ? plan.message : '', /^missing system packages: chromium ripgrep libkrb5-dev build-essential pkg-config \(Chromium drives/);
		assert.match(plan.kind === 'stop' ? plan.message : '', /sudo apt-get install -y chromium ripgrep libkrb5-dev build-essential pkg-config/);
	});

	it('stops as root too when there is no apt-get to install with', () => {
		assert.equal(systemPlan({ codeServer: false }, probe({ root: true, chromium: false, commands: [] })).kind, 'stop');
	});

	it('asks only for Chromium once code-server is installed, or for the page tests alone', () => {
		assert.deepEqual(systemPlan({ codeServer: false }, probe({ root: true, chromium: false, commands: ['apt-get'], debianPackages: [] })), { kind: 'install', packages: ['chromium'] });
		assert.match(JSON.stringify(systemPlan({ codeServer: false }, probe({ chromium: false }))), /sudo apt-get install -y chromium\b/);
	});

	it('stops on a CHROMIUM_PATH that points nowhere, even as root, saying what to do', () => {
		const plan = systemPlan({ codeServer: false }, probe({ root: true, chromium: false, chromiumPath: '/nonexistent' }));
		assert.equal(plan.kind, 'stop');
		assert.match(plan.kind === 'stop' ? plan.message : '', /no Chromium at CHROMIUM_PATH=\/nonexistent: .*apt-get install -y chromium/);
	});

	it('probes this machine without changing it', () => {
		assert.equal(typeof machineProbe.isRoot(), 'boolean');
		assert.equal(machineProbe.hasCommand('sh'), true);
		assert.equal(machineProbe.hasCommand('no-such-command-anywhere'), false);
	});
});
