import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { expandHome, resolveAgentDir } from '../../../../src/node/paths/agentDir';

const home = '/home/me';
const cwd = '/work/project';

describe('resolveAgentDir', () => {
	it('prefers the explicit setting, then $PI_CODING_AGENT_DIR, then ~/.pi/agent', () => {
		const env = { PI_CODING_AGENT_DIR: '/from/env' };
		assert.deepEqual(resolveAgentDir({ override: '/chosen', env, homedir: home, cwd }), { path: '/chosen', source: 'setting' });
		assert.deepEqual(resolveAgentDir({ override: '  ', env, homedir: home, cwd }), { path: '/from/env', source: 'environment' });
		assert.deepEqual(resolveAgentDir({ env: {}, homedir: home, cwd }), { path: '/home/me/.pi/agent', source: 'default' });
	});

	it('treats an empty variable as unset, as Pi does', () => {
		assert.equal(resolveAgentDir({ env: { PI_CODING_AGENT_DIR: '' }, homedir: home, cwd }).source, 'default');
	});

	it('expands ~ and ~/ (and only those) like Pi', () => {
		assert.equal(resolveAgentDir({ env: { PI_CODING_AGENT_DIR: '~' }, homedir: home, cwd }).path, home);
		assert.equal(resolveAgentDir({ env: { PI_CODING_AGENT_DIR: '~/pi-agent' }, homedir: home, cwd }).path, '/home/me/pi-agent');
		assert.equal(resolveAgentDir({ override: '~/x/y', env: {}, homedir: home, cwd }).path, '/home/me/x/y');
		assert.equal(expandHome('~other/x', home), '~other/x');
		assert.equal(expandHome('/abs/~/x', home), '/abs/~/x');
	});

	it('takes a relative value from the given folder, as Pi takes it from the folder it runs in, so it is always absolute', () => {
		assert.deepEqual(resolveAgentDir({ override: 'pi-agent', env: {}, homedir: home, cwd }), { path: '/work/project/pi-agent', source: 'setting' });
		assert.equal(resolveAgentDir({ env: { PI_CODING_AGENT_DIR: './agent/' }, homedir: home, cwd }).path, '/work/project/agent');
		assert.equal(resolveAgentDir({ env: { PI_CODING_AGENT_DIR: '../shared/agent' }, homedir: home, cwd }).path, '/work/shared/agent');
		assert.equal(resolveAgentDir({ override: '/abs/agent/', env: {}, homedir: home, cwd }).path, '/abs/agent');
	});

	it('matches Pi\'s own getAgentDir for the same environment', async () => {
		const { getAgentDir } = await import('@mariozechner/pi-coding-agent');
		const { homedir } = await import('node:os');
		const saved = process.env.PI_CODING_AGENT_DIR;
		try {
			for (const value of [undefined, '~', '~/agent-here', '/tmp/elsewhere', 'relative/agent', './agent/']) {
				if (value === undefined) {
					delete process.env.PI_CODING_AGENT_DIR;
				} else {
					process.env.PI_CODING_AGENT_DIR = value;
				}
				assert.equal(resolveAgentDir({ env: process.env, homedir: homedir(), cwd: process.cwd() }).path, resolve(getAgentDir()), String(value));
			}
		} finally {
			if (saved === undefined) {
				delete process.env.PI_CODING_AGENT_DIR;
			} else {
				process.env.PI_CODING_AGENT_DIR = saved;
			}
		}
	});
});
