/**
 * Finding the Pi installed on the machine: the `pi` command on PATH followed to its package, else Pi's
 * package in npm's global folder; read-only, and only Pi's own package names count.
 */
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { globalNpmRootFinder, type GlobalNpmRootAnswer } from '../../../../src/node/release/globalNpmRoot';
import { findInstalledPi } from '../../../../src/node/release/installedPi';
import { useTempDir } from '../../../support/tempDirs';

/** Pi as `npm install -g` leaves it under `prefix`: the package, and `bin/pi` linking to its CLI. */
function installPi(prefix: string, name: string, version: string, withBin = true): void {
	const root = join(prefix, 'lib', 'node_modules', ...name.split('/'));
	mkdirSync(join(root, 'dist', 'bundle'), { recursive: true });
	writeFileSync(join(root, 'package.json'), JSON.stringify({ name, version, bin: { pi: 'dist/bundle/cli.js' } }));
	writeFileSync(join(root, 'dist', 'bundle', 'cli.js'), '#!/usr/bin/env node\n', { mode: 0o755 });
	if (withBin) {
		mkdirSync(join(prefix, 'bin'), { recursive: true });
		symlinkSync(join(root, 'dist', 'bundle', 'cli.js'), join(prefix, 'bin', 'pi'));
	}
}

describe('the Pi installed on the machine', () => {
	const temp = useTempDir('installed-pi');
	const noGlobal = (): Promise<GlobalNpmRootAnswer> => Promise.resolve({ kind: 'unknown' });

	it('follows the pi command on PATH to its package', async () => {
		installPi(temp(), '@earendil-works/pi-coding-agent', '1.6.0');
		const pi = await findInstalledPi({ env: { PATH: join(temp(), 'bin') }, platform: 'linux', globalNpmRoot: noGlobal });
		assert.deepEqual(pi, {
			name: '@earendil-works/pi-coding-agent', version: '1.6.0', foundBy: 'path',
			packageJsonPath: join(temp(), 'lib', 'node_modules', '@earendil-works', 'pi-coding-agent', 'package.json'),
		});
	});

	it('looks in npm\'s global folder when pi is not on PATH (VS Code started without the shell\'s PATH), old package name included', async () => {
		installPi(temp(), '@mariozechner/pi-coding-agent', '0.73.1', false);
		const root = join(temp(), 'lib', 'node_modules');
		const asked: unknown[] = [];
		const finder = (command: readonly string[] | undefined): Promise<GlobalNpmRootAnswer> => (asked.push(command), Promise.resolve({ kind: 'found', root, from: 'test' }));
		const pi = await findInstalledPi({ env: { PATH: '' }, platform: 'linux', npmCommand: ['bun'], globalNpmRoot: finder });
		assert.equal(pi?.version, '0.73.1');
		assert.equal(pi?.foundBy, 'npm-global');
		assert.deepEqual(asked, [['bun']]);
	});

	it('finds npm\'s global folder from npm\'s configuration, running nothing', async () => {
		installPi(temp(), '@earendil-works/pi-coding-agent', '1.6.0', false);
		const fromEnvironment = globalNpmRootFinder({ env: { npm_config_prefix: temp() }, platform: 'linux', home: temp() });
		assert.equal((await findInstalledPi({ env: { PATH: '' }, platform: 'linux', globalNpmRoot: fromEnvironment }))?.version, '1.6.0');
		assert.equal(await findInstalledPi({ env: { PATH: '' }, platform: 'linux', npmCommand: ['pnpm'], globalNpmRoot: fromEnvironment }), undefined, 'another package manager is not looked up');
	});

	it('finds nothing where only another package is called pi, or npm cannot say where its folder is', async () => {
		const bin = join(temp(), 'bin');
		mkdirSync(bin, { recursive: true });
		writeFileSync(join(temp(), 'package.json'), JSON.stringify({ name: 'not-pi', version: '9.9.9' }));
		writeFileSync(join(bin, 'pi'), '#!/bin/sh\n', { mode: 0o755 });
		assert.equal(await findInstalledPi({ env: { PATH: bin }, platform: 'linux', globalNpmRoot: noGlobal }), undefined);
	});
});
