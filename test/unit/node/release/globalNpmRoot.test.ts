import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { globalNpmRootFinder, type GlobalNpmRootAnswer } from '../../../../src/node/release/globalNpmRoot';
import { topLevelValue } from '../../../../src/node/release/npmPrefix';
import { useTempDir } from '../../../support/tempDirs';

const rootOf = (answer: GlobalNpmRootAnswer) => (answer.kind === 'found' ? answer.root : answer.kind);

describe('npm\'s global folder (Pi\'s legacy user-scope npm location), read without running anything', () => {
	const temp = useTempDir('npm-root');

	/** A node install laid out as the official tarball: `<prefix>/bin/{node,npm}`, npm a link to its package. */
	function nodeInstall(prefix: string, builtinNpmrc?: string): string {
		const npmDir = join(prefix, 'lib', 'node_modules', 'npm');
		mkdirSync(join(npmDir, 'bin'), { recursive: true });
		mkdirSync(join(prefix, 'bin'), { recursive: true });
		writeFileSync(join(prefix, 'bin', 'node'), '#!/bin/sh\n');
		writeFileSync(join(npmDir, 'bin', 'npm-cli.js'), '#!/usr/bin/env node\n');
		chmodSync(join(prefix, 'bin', 'node'), 0o755);
		chmodSync(join(npmDir, 'bin', 'npm-cli.js'), 0o755);
		symlinkSync(join(npmDir, 'bin', 'npm-cli.js'), join(prefix, 'bin', 'npm'));
		if (builtinNpmrc !== undefined) {
			writeFileSync(join(npmDir, 'npmrc'), builtinNpmrc);
		}
		return join(prefix, 'bin');
	}

	it('takes npm_config_prefix from the environment, in any letter case', async () => {
		const lower = globalNpmRootFinder({ env: { npm_config_prefix: '/opt/node' }, platform: 'linux', home: temp() });
		assert.equal(rootOf(await lower(undefined)), join('/opt/node', 'lib', 'node_modules'));
		const upper = globalNpmRootFinder({ env: { NPM_CONFIG_PREFIX: '/npm' }, platform: 'win32', home: temp() });
		assert.equal(rootOf(await upper(['npm'])), join('/npm', 'node_modules'), 'no lib/ on Windows');
	});

	it('reads the prefix as npm does: user npmrc, then global npmrc, then the built-in one, then node\'s folder', async () => {
		const home = join(temp(), 'home');
		mkdirSync(home, { recursive: true });
		const bin = nodeInstall(join(temp(), 'usr'));
		const env = { PATH: bin, MY_PREFIX: join(temp(), 'from-env') };
		const find = () => globalNpmRootFinder({ env, platform: 'linux', home })(undefined);
		assert.equal(rootOf(await find()), join(temp(), 'usr', 'lib', 'node_modules'), 'the folder above bin/node');
		const brew = join(temp(), 'homebrew');
		writeFileSync(join(temp(), 'usr', 'lib', 'node_modules', 'npm', 'npmrc'), `prefix=${brew}\n`);
		assert.equal(rootOf(await find()), join(brew, 'lib', 'node_modules'), 'the built-in npmrc');
		mkdirSync(join(temp(), 'usr', 'etc'), { recursive: true });
		writeFileSync(join(temp(), 'usr', 'etc', 'npmrc'), 'prefix = "/srv/npm-global"\n');
		assert.equal(rootOf(await find()), join(brew, 'lib', 'node_modules'), 'the global npmrc is looked for under the built-in prefix');
		mkdirSync(join(brew, 'etc'), { recursive: true });
		writeFileSync(join(brew, 'etc', 'npmrc'), 'prefix=/srv/brew-global\n');
		assert.equal(rootOf(await find()), join('/srv/brew-global', 'lib', 'node_modules'), 'the global npmrc over the built-in one');
		writeFileSync(join(home, '.npmrc'), '; user settings\nregistry=https://example.invalid/\nprefix=${MY_PREFIX} ; a comment\n[section]\nprefix=/nope\n');
		assert.equal(rootOf(await find()), join(temp(), 'from-env', 'lib', 'node_modules'), 'the user npmrc wins, ${} expanded');
		writeFileSync(join(home, '.npmrc'), 'prefix=~/.npm-global\n');
		assert.equal(rootOf(await find()), join(home, '.npm-global', 'lib', 'node_modules'), '~/ expanded');
		writeFileSync(join(home, '.npmrc'), 'prefix=${UNSET_VARIABLE}/x\n');
		assert.equal(rootOf(await find()), join('/srv/brew-global', 'lib', 'node_modules'), 'an unusable user value counts as none');
	});

	it('finds bun\'s global folder from its environment, as `bun pm bin -g` would tell Pi', async () => {
		const find = globalNpmRootFinder({ env: { BUN_INSTALL: '/home/ada/.bun' }, platform: 'linux', home: '/home/ada' });
		assert.equal(rootOf(await find(['bun'])), join('/home/ada/.bun', 'install', 'global', 'node_modules'));
		const byDefault = globalNpmRootFinder({ env: {}, platform: 'linux', home: '/home/ada' });
		assert.equal(rootOf(await byDefault(['/usr/local/bin/bun'])), join('/home/ada/.bun', 'install', 'global', 'node_modules'));
	});

	it('runs no npmCommand a settings file names, whatever it is', async () => {
		const marker = join(temp(), 'ran');
		const script = join(temp(), 'npm');
		writeFileSync(script, `#!/bin/sh\ntouch ${marker}\necho /tmp/evil\n`);
		chmodSync(script, 0o755);
		// A hostile npm first on the PATH is not run either: only its location is read.
		const find = globalNpmRootFinder({ env: { PATH: temp() }, platform: 'linux', home: temp() });
		assert.deepEqual(await find(['/bin/sh', '-c', `touch ${marker}`]), { kind: 'not-looked-up', command: `/bin/sh -c touch ${marker}` });
		assert.deepEqual(await find([script]), { kind: 'unknown' });
		assert.deepEqual(await find(['mise', 'exec', '--', 'npm']), { kind: 'not-looked-up', command: 'mise exec -- npm' });
		assert.equal(existsSync(marker), false);
	});

	it('reads npmrc values as ini does', () => {
		assert.equal(topLevelValue('a=1\nprefix=/x\nprefix = \'/y z\'\n', 'prefix'), '/y z');
		assert.equal(topLevelValue('# prefix=/x\n;prefix=/y\n', 'prefix'), undefined);
		assert.equal(topLevelValue('prefix=/a # note\n', 'prefix'), '/a');
	});

	it('agrees with this machine\'s own `npm root -g`', async function () {
		this.timeout(20_000);
		const { npm_config_prefix: _prefix, NPM_CONFIG_PREFIX: _upper, ...env } = process.env;
		// The test may run npm (it is ours); the code under test does not.
		const npmSays = execFileSync('npm', ['root', '-g'], { encoding: 'utf8', env, cwd: temp() }).trim();
		const ours = await globalNpmRootFinder({ env, platform: process.platform, home: homedir() })(undefined);
		assert.equal(rootOf(ours), npmSays);
	});
});
