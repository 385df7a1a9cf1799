/**
 * The private runtime folder and the records in it, on real files: created 0700, records written
 * 0600 through a rename; a folder that is a symlink, open to others or owned by another user is
 * refused, and so is any record that is not a private regular file naming its own socket.
 */
import assert from 'node:assert/strict';
import { chmodSync, chownSync, lstatSync, mkdirSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BridgeRecord } from '../../../../src/engine/live/bridgeRecord';
import { newSocketPath, readRecords, removeRecord, writeRecord } from '../../../../src/node/bridge/recordFiles';
import { bridgeFolder, checkPrivateFolder, currentPlatform, discoveryFolders, ensurePrivateFolder, runtimeFolderCandidates, type Platform } from '../../../../src/node/bridge/runtimeFolder';
import { useTempDir } from '../../../support/tempDirs';

const mode = (path: string): number => lstatSync(path).mode & 0o777;
const own = currentPlatform();

function record(folder: string, pid: number): BridgeRecord {
	return { protocol: 1, pid, socket: newSocketPath(folder, pid), token: 'c'.repeat(64), piVersion: '1.6.0', cwd: '/p', sessionFile: '/p/s.jsonl', startedAt: 1 };
}

describe('the bridge\'s runtime folder', () => {
	const temp = useTempDir('pi-condense-runtime');

	it('candidates: $XDG_RUNTIME_DIR first, then the user\'s cache folder, then the temporary folder named for the user; %LOCALAPPDATA% on Windows', () => {
		const on: Platform = { env: { XDG_RUNTIME_DIR: '/run/user/1000' }, platform: 'linux', tmp: '/var/tmp', home: '/home/me', uid: 1000 };
		assert.deepEqual(runtimeFolderCandidates(on), ['/run/user/1000/pi-condense-vscode', '/home/me/.cache/pi-condense-vscode', '/var/tmp/pi-condense-vscode-1000']);
		// VS Code looks in the same places in the same order, then in /tmp's and ~/.cache's, for a Pi started with another TMPDIR or XDG_CACHE_HOME.
		assert.deepEqual(discoveryFolders(on), ['/run/user/1000/pi-condense-vscode', '/home/me/.cache/pi-condense-vscode', '/var/tmp/pi-condense-vscode-1000', '/tmp/pi-condense-vscode-1000']);
		assert.deepEqual(runtimeFolderCandidates({ ...on, env: { XDG_RUNTIME_DIR: 'relative', XDG_CACHE_HOME: '/cache' }, tmp: '/tmp' }), ['/cache/pi-condense-vscode', '/tmp/pi-condense-vscode-1000']);
		assert.deepEqual(discoveryFolders({ ...on, env: { XDG_CACHE_HOME: '/cache' } }), ['/cache/pi-condense-vscode', '/var/tmp/pi-condense-vscode-1000', '/tmp/pi-condense-vscode-1000', '/home/me/.cache/pi-condense-vscode']);
		assert.deepEqual(runtimeFolderCandidates({ ...on, env: {}, platform: 'darwin', home: '/Users/me' }), ['/Users/me/Library/Caches/pi-condense-vscode', '/var/tmp/pi-condense-vscode-1000']);
		assert.deepEqual(runtimeFolderCandidates({ ...on, env: {}, home: '/' }), ['/var/tmp/pi-condense-vscode-1000'], 'no home: no cache folder');
		assert.deepEqual(runtimeFolderCandidates({ env: { LOCALAPPDATA: 'C:\\Users\\me\\AppData\\Local' }, platform: 'win32', tmp: 'C:\\Temp', home: 'C:\\Users\\me', uid: undefined }).length, 1);
	});

	it('with no $XDG_RUNTIME_DIR, a temporary folder another user created first does not keep the bridge off: the cache folder is used', async () => {
		const tmp = join(temp(), 'tmp');
		const squatted = join(tmp, `pi-condense-vscode-${own.uid ?? 'user'}`);
		mkdirSync(squatted, { recursive: true, mode: 0o700 });
		if (own.uid === 0) {
			chownSync(squatted, 12345, 12345); // as root: really another user's folder
		} else {
			chmodSync(squatted, 0o777);
		}
		const home = join(temp(), 'home');
		mkdirSync(home, { mode: 0o700 });
		const on: Platform = { env: {}, platform: own.platform, tmp, home, uid: own.uid };
		const chosen = await bridgeFolder(on);
		assert.deepEqual(chosen, { folder: join(home, '.cache', 'pi-condense-vscode') });
		assert.equal(mode(join(home, '.cache')), 0o700, 'the missing cache folder is created, private');
		assert.equal(mode(join(home, '.cache', 'pi-condense-vscode')), 0o700);
		assert.ok(discoveryFolders(on).indexOf(join(home, '.cache', 'pi-condense-vscode')) < discoveryFolders(on).indexOf(squatted), 'VS Code looks there first too');
		assert.deepEqual(readdirSync(squatted), [], 'nothing put in the other user\'s folder');
	});

	it('skips a folder too deep for a socket path, saying so', async () => {
		const deep = join(temp(), 'd'.repeat(90));
		mkdirSync(deep);
		const chosen = await bridgeFolder({ env: { XDG_RUNTIME_DIR: deep }, platform: own.platform, tmp: temp(), home: '/', uid: own.uid });
		assert.deepEqual(chosen, { folder: join(temp(), `pi-condense-vscode-${own.uid ?? 'user'}`) });
	});

	it('is created with mode 0700 and accepted', async () => {
		const folder = join(temp(), 'bridge');
		assert.deepEqual(await ensurePrivateFolder(folder), { ok: true });
		assert.equal(mode(folder), 0o700);
		const chosen = await bridgeFolder({ ...own, env: { XDG_RUNTIME_DIR: temp() } });
		assert.deepEqual(chosen, { folder: join(temp(), 'pi-condense-vscode') });
	});

	it('is refused when it is a symbolic link, open to others, not a folder, or owned by another user', async () => {
		const real = join(temp(), 'real');
		mkdirSync(real, { mode: 0o700 });
		const link = join(temp(), 'link');
		symlinkSync(real, link);
		assert.deepEqual(await checkPrivateFolder(link), { ok: false, problem: `${link} is a symbolic link` });
		const open = join(temp(), 'open');
		mkdirSync(open);
		chmodSync(open, 0o755);
		assert.match(JSON.stringify(await checkPrivateFolder(open)), /open to other users \(mode 755, it must be 700\)/);
		const file = join(temp(), 'file');
		writeFileSync(file, '');
		assert.deepEqual(await checkPrivateFolder(file), { ok: false, problem: `${file} is not a directory` });
		const theirs = join(temp(), 'theirs');
		mkdirSync(theirs, { mode: 0o700 });
		if (own.uid === 0) {
			chownSync(theirs, 65534, 65534); // as root: really another user's folder
			assert.match(JSON.stringify(await checkPrivateFolder(theirs)), /owned by another user \(uid 65534\)/);
		} else {
			assert.match(JSON.stringify(await checkPrivateFolder(theirs, { ...own, uid: (own.uid ?? 0) + 1 })), /owned by another user/);
		}
		// The bridge takes the next candidate when the preferred one is refused.
		const runtimeDir = join(temp(), 'run');
		mkdirSync(runtimeDir);
		symlinkSync(real, join(runtimeDir, 'pi-condense-vscode'));
		const fallback = await bridgeFolder({ env: { XDG_RUNTIME_DIR: runtimeDir }, platform: own.platform, tmp: temp(), home: '/', uid: own.uid });
		assert.ok('folder' in fallback && fallback.folder === join(temp(), `pi-condense-vscode-${own.uid}`), JSON.stringify(fallback));
	});
});

describe('discovery records', () => {
	const temp = useTempDir('pi-condense-records');
	const folder = (): string => {
		const path = join(temp(), 'f');
		mkdirSync(path, { mode: 0o700 });
		return path;
	};

	it('are written 0600 through a temporary file, read back and removed with their socket', async () => {
		const dir = folder();
		const written = record(dir, 1234);
		await writeRecord(dir, written);
		assert.deepEqual(readdirSync(dir), ['1234.json']);
		assert.equal(mode(join(dir, '1234.json')), 0o600);
		assert.deepEqual(await readRecords(dir), { records: [{ path: join(dir, '1234.json'), record: written }], problems: [] });
		writeFileSync(written.socket, '');
		await removeRecord(dir, 1234, written.socket);
		assert.deepEqual(readdirSync(dir), []);
	});

	it('a record that is a link, open to others, too large, of another pid or naming another socket is not used', async () => {
		const dir = folder();
		await writeRecord(dir, record(dir, 1));
		symlinkSync(join(dir, '1.json'), join(dir, '2.json'));
		writeFileSync(join(dir, '3.json'), JSON.stringify(record(dir, 3)), { mode: 0o644 });
		writeFileSync(join(dir, '4.json'), ' '.repeat(20_000), { mode: 0o600 });
		writeFileSync(join(dir, '5.json'), JSON.stringify(record(dir, 6)), { mode: 0o600 });
		writeFileSync(join(dir, '7.json'), JSON.stringify({ ...record(dir, 7), socket: '/tmp/7-0123456789abcdef.sock' }), { mode: 0o600 });
		writeFileSync(join(dir, 'notes.txt'), 'ignored');
		const { records, problems } = await readRecords(dir);
		assert.deepEqual(records.map((found) => found.record.pid), [1]);
		assert.equal(problems.length, 5, problems.join('\n'));
		assert.match(problems.join('\n'), /2\.json: a symbolic link/);
		assert.match(problems.join('\n'), /3\.json: not a private file of this user/);
		assert.match(problems.join('\n'), /4\.json: 20000 bytes/);
		assert.match(problems.join('\n'), /5\.json: pid 6 is not the pid of its file name/);
		assert.match(problems.join('\n'), /7\.json: the socket is not one a bridge of this pid makes/);
		// Removing a record never removes a socket outside the folder.
		writeFileSync(join(temp(), '7-0123456789abcdef.sock'), '');
		await removeRecord(dir, 7, join(temp(), '7-0123456789abcdef.sock'));
		assert.ok(statSync(join(temp(), '7-0123456789abcdef.sock')).isFile());
	});
});
