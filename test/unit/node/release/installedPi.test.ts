/**
 * Finding the Pi installed on the machine, the one finder of the release detection and the pi-ai
 * loader: the `pi` command on PATH followed to its package, else Pi's package in npm's global folder;
 * read-only, only Pi's own package names count, only absolute PATH entries, never inside a workspace folder.
 */
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { delimiter, join, relative } from 'node:path';
import { globalNpmRootFinder, type GlobalNpmRootAnswer } from '../../../../src/node/release/globalNpmRoot';
import { findInstalledPi, type PiSearch } from '../../../../src/node/release/installedPi';
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

const notFound = (search: PiSearch): string | undefined => ('notFound' in search ? search.notFound : undefined);
const found = (search: PiSearch): Extract<PiSearch, { found: unknown }>['found'] | undefined => ('found' in search ? search.found : undefined);

describe('the Pi installed on the machine', () => {
	const temp = useTempDir('installed-pi');
	const noGlobal = (): Promise<GlobalNpmRootAnswer> => Promise.resolve({ kind: 'unknown' });

	it('follows the pi command on PATH to its package', async () => {
		installPi(temp(), '@earendil-works/pi-coding-agent', '1.6.0');
		const pi = found(await findInstalledPi({ env: { PATH: join(temp(), 'bin') }, platform: 'linux', globalNpmRoot: noGlobal }));
		const root = join(temp(), 'lib', 'node_modules', '@earendil-works', 'pi-coding-agent');
		assert.deepEqual(pi, { name: '@earendil-works/pi-coding-agent', version: '1.6.0', foundBy: 'path', packageJsonPath: join(root, 'package.json'), root });
	});

	it('looks in npm\'s global folder when pi is not on PATH (VS Code started without the shell\'s PATH), old package name included', async () => {
		installPi(temp(), '@mariozechner/pi-coding-agent', '0.73.1', false);
		const root = join(temp(), 'lib', 'node_modules');
		const asked: unknown[] = [];
		const finder = (command: readonly string[] | undefined): Promise<GlobalNpmRootAnswer> => (asked.push(command), Promise.resolve({ kind: 'found', root, from: 'test' }));
		const pi = found(await findInstalledPi({ env: { PATH: '' }, platform: 'linux', npmCommand: ['bun'], globalNpmRoot: finder }));
		assert.equal(pi?.version, '0.73.1');
		assert.equal(pi?.foundBy, 'npm-global');
		assert.deepEqual(asked, [['bun']]);
	});

	it('finds npm\'s global folder from npm\'s configuration, running nothing', async () => {
		installPi(temp(), '@earendil-works/pi-coding-agent', '1.6.0', false);
		const fromEnvironment = globalNpmRootFinder({ env: { npm_config_prefix: temp() }, platform: 'linux', home: temp() });
		assert.equal(found(await findInstalledPi({ env: { PATH: '' }, platform: 'linux', globalNpmRoot: fromEnvironment }))?.version, '1.6.0');
		assert.deepEqual(notFound(await findInstalledPi({ env: { PATH: '' }, platform: 'linux', npmCommand: ['pnpm'], globalNpmRoot: fromEnvironment })), 'no `pi` command on the PATH', 'another package manager is not looked up');
	});

	it('finds nothing where only another package is called pi, or npm cannot say where its folder is', async () => {
		const bin = join(temp(), 'bin');
		mkdirSync(bin, { recursive: true });
		writeFileSync(join(temp(), 'package.json'), JSON.stringify({ name: 'not-pi', version: '9.9.9' }));
		writeFileSync(join(bin, 'pi'), '#!/bin/sh\n', { mode: 0o755 });
		const search = await findInstalledPi({ env: { PATH: bin }, platform: 'linux', globalNpmRoot: noGlobal });
		assert.match('notFound' in search ? search.notFound : '', /pi is not part of an installed @earendil-works\/pi-coding-agent or @mariozechner\/pi-coding-agent package/);
	});

	it('ignores a relative PATH entry (it names a folder relative to wherever VS Code started)', async () => {
		installPi(temp(), '@earendil-works/pi-coding-agent', '1.6.0');
		const search = await findInstalledPi({ env: { PATH: relative(process.cwd(), join(temp(), 'bin')) }, platform: 'linux', globalNpmRoot: noGlobal });
		assert.deepEqual(search, { notFound: 'no `pi` command on the PATH', missing: { hostPath: [], loginShell: { kind: 'unavailable', reason: 'not asked' }, detail: undefined } });
	});

	it('never follows a Pi inside a workspace folder, from the PATH or npm\'s global folder', async () => {
		installPi(temp(), '@earendil-works/pi-coding-agent', '1.6.0');
		const global = (): Promise<GlobalNpmRootAnswer> => Promise.resolve({ kind: 'found', root: join(temp(), 'lib', 'node_modules'), from: 'test' });
		for (const env of [{ PATH: join(temp(), 'bin') }, { PATH: '' }]) {
			const search = await findInstalledPi({ env, platform: 'linux', globalNpmRoot: global, excludedRoots: [temp()] });
			assert.match('notFound' in search ? search.notFound : '', /is inside the workspace folder/, env.PATH);
		}
	});

	it('looks on the login shell\'s PATH first, as a terminal would, then on VS Code\'s', async () => {
		installPi(join(temp(), 'login'), '@earendil-works/pi-coding-agent', '1.6.0');
		installPi(join(temp(), 'host'), '@earendil-works/pi-coding-agent', '1.5.0');
		const loginShell = { kind: 'read', shell: '/bin/sh', folders: [join(temp(), 'login', 'bin')] } as const;
		const both = found(await findInstalledPi({ env: { PATH: join(temp(), 'host', 'bin') }, platform: 'linux', globalNpmRoot: noGlobal, loginShell }));
		assert.deepEqual([both?.version, both?.foundBy], ['1.6.0', 'login-shell-path']);
		const hostOnly = found(await findInstalledPi({ env: { PATH: join(temp(), 'host', 'bin') }, platform: 'linux', globalNpmRoot: noGlobal, loginShell: { ...loginShell, folders: ['/nowhere'] } }));
		assert.deepEqual([hostOnly?.version, hostOnly?.foundBy], ['1.5.0', 'path']);
	});

	it('says where it looked when no Pi is found: VS Code\'s PATH and the login shell\'s', async () => {
		const loginShell = { kind: 'read', shell: '/bin/zsh', folders: [temp()] } as const;
		const search = await findInstalledPi({ env: { PATH: `/opt/a${delimiter}relative${delimiter}/opt/b` }, platform: 'linux', globalNpmRoot: noGlobal, loginShell });
		assert.deepEqual('missing' in search ? search.missing : undefined, { hostPath: ['/opt/a', '/opt/b'], loginShell, detail: undefined });
	});
});
