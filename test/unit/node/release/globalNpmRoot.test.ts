import assert from 'node:assert/strict';
import { isAbsolute, join } from 'node:path';
import { globalNpmRootFinder } from '../../../../src/node/release/globalNpmRoot';

describe('npm\'s global folder (Pi\'s legacy user-scope npm location)', () => {
	it('takes npm_config_prefix from the environment without running anything', async () => {
		const find = globalNpmRootFinder({
			env: { npm_config_prefix: '/opt/node' }, platform: 'linux', execPath: '/usr/bin/node',
			run: () => Promise.reject(new Error('must not run')),
		});
		assert.equal(await find(undefined), join('/opt/node', 'lib', 'node_modules'));
	});

	it('asks `npm root -g` once per command, and keeps the answer', async () => {
		const calls: string[] = [];
		const find = globalNpmRootFinder({
			env: {}, platform: 'linux', execPath: '/usr/bin/node',
			run: (command, args) => {
				calls.push([command, ...args].join(' '));
				return Promise.resolve(command === 'bun' ? '/home/ada/.bun/bin\n' : '/usr/local/lib/node_modules\n');
			},
		});
		assert.equal(await find(undefined), '/usr/local/lib/node_modules');
		assert.equal(await find(undefined), '/usr/local/lib/node_modules');
		assert.equal(await find(['mise', 'exec', '--', 'npm']), '/usr/local/lib/node_modules');
		assert.equal(await find(['bun']), join('/home/ada/.bun', 'install', 'global', 'node_modules'));
		assert.deepEqual(calls, ['npm root -g', 'mise exec -- npm root -g', 'bun pm bin -g']);
	});

	it('guesses from a node executable\'s layout when npm cannot be run, and gives up inside an editor', async () => {
		const failing = () => Promise.reject(new Error('spawn npm ENOENT'));
		const cli = globalNpmRootFinder({ env: {}, platform: 'linux', execPath: '/opt/node-20/bin/node', run: failing });
		assert.equal(await cli(undefined), join('/opt/node-20', 'lib', 'node_modules'));
		const editor = globalNpmRootFinder({ env: {}, platform: 'linux', execPath: '/usr/share/code/code', run: failing });
		assert.equal(await editor(undefined), undefined);
	});

	it('gets a real answer from this machine\'s npm', async function () {
		this.timeout(20_000);
		const { npm_config_prefix: _prefix, NPM_CONFIG_PREFIX: _upper, ...env } = process.env;
		// An editor's executable leaves no guess to fall back on: an answer means npm ran.
		const root = await globalNpmRootFinder({ env, platform: process.platform, execPath: '/usr/share/code/code' })(undefined);
		assert.ok(root !== undefined && isAbsolute(root) && root.endsWith('node_modules'), String(root));
	});
});
