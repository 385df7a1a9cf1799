/**
 * The login shell's PATH: a real shell script as `$SHELL` (a profile that prints a banner, relative
 * entries, a hang), run with `-l -c` under a deadline and a signal; and the source that reads it once.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseLoginShellPath, readLoginShellPath } from '../../../../src/node/paths/loginShellPath';
import { LoginShellSource, NOT_TRUSTED } from '../../../../src/node/paths/loginShellSource';
import type { LoginShellState } from '../../../../src/engine/release';
import { WorkScope } from '../../../../src/work';
import { useTempDir } from '../../../support/tempDirs';

/** A shell that, as a login shell, sets PATH the way a profile would, prints a banner, then runs the command. */
function fakeLoginShell(dir: string, profile: string): string {
	const shell = join(dir, 'login-shell');
	writeFileSync(shell, `#!/bin/sh\n[ "$1" = "-l" ] || exit 7\n${profile}\nexec /bin/sh -c "$3"\n`, { mode: 0o755 });
	return shell;
}

describe('the login shell\'s PATH', () => {
	const temp = useTempDir('login-shell');

	it('keeps the absolute folders printed after the marker, once each, and nothing after its line', () => {
		assert.deepEqual(parseLoginShellPath('Welcome!\n__PI_CONDENSE_LOGIN_PATH__/a:rel:/b::/a\nbye'), ['/a', '/b']);
		assert.equal(parseLoginShellPath('no marker here /a:/b'), undefined);
		assert.deepEqual(parseLoginShellPath('__PI_CONDENSE_LOGIN_PATH__'), []);
	});

	it('asks $SHELL as a login shell, past a banner its profile prints', async () => {
		const shell = fakeLoginShell(temp(), 'echo "Good morning"; PATH=/opt/pi/bin:relative/bin:/usr/bin:/bin; export PATH');
		const read = await readLoginShellPath({ env: { SHELL: shell, PATH: '/usr/bin:/bin' }, signal: new AbortController().signal, platform: 'linux' });
		assert.deepEqual(read, { kind: 'read', shell, folders: ['/opt/pi/bin', '/usr/bin', '/bin'] });
	});

	it('gives up on a shell that does not answer by the deadline, and says so', async () => {
		const shell = fakeLoginShell(temp(), 'exec sleep 30');
		const read = await readLoginShellPath({ env: { SHELL: shell, PATH: '/usr/bin:/bin' }, signal: new AbortController().signal, deadlineMs: 200, platform: 'linux' });
		assert.deepEqual(read, { kind: 'unavailable', reason: `${shell} -l did not answer within 0.2 s` });
	});

	it('stops when its signal aborts', async () => {
		const shell = fakeLoginShell(temp(), 'exec sleep 30');
		const stop = new AbortController();
		const reading = readLoginShellPath({ env: { SHELL: shell, PATH: '/usr/bin:/bin' }, signal: stop.signal, platform: 'linux' });
		stop.abort();
		assert.deepEqual(await reading, { kind: 'unavailable', reason: `${shell} -l stopped` });
	});

	it('runs nothing without an absolute SHELL, and says why a failing shell gave nothing', async () => {
		const signal = new AbortController().signal;
		assert.equal((await readLoginShellPath({ env: { SHELL: 'zsh' }, signal, platform: 'linux' })).kind, 'unavailable');
		assert.equal((await readLoginShellPath({ env: {}, signal, platform: 'linux' })).kind, 'unavailable');
		const failing = fakeLoginShell(temp(), 'exit 3');
		assert.deepEqual(await readLoginShellPath({ env: { SHELL: failing }, signal, platform: 'linux' }), { kind: 'unavailable', reason: `${failing} -l failed with exit code 3` });
	});

	it('is read once, when asked (a trusted workspace), and heard when it arrives', async () => {
		const shell = fakeLoginShell(temp(), 'PATH=/opt/pi/bin:/bin; export PATH');
		const work = WorkScope.root('test', (where, error) => assert.fail(`${where}: ${String(error)}`));
		try {
			const source = new LoginShellSource(work.child('login shell'), { SHELL: shell, PATH: '/bin' });
			assert.deepEqual(source.current, NOT_TRUSTED, 'nothing runs before it is asked');
			const heard: LoginShellState[] = [];
			const arrived = new Promise<void>((resolve) => source.onDidChange((state) => {
				heard.push(state);
				if (state.kind !== 'pending') {
					resolve();
				}
			}));
			source.read();
			source.read();
			await arrived;
			assert.deepEqual(heard, [{ kind: 'pending' }, { kind: 'read', shell, folders: ['/opt/pi/bin', '/bin'] }]);
		} finally {
			await work.close();
		}
	});
});
