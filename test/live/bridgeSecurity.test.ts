/**
 * The bridge's safety in a real Pi 1.6.0: a wrong token is refused; the runtime folder, the record
 * and the socket are 0700, 0600 and 0600; a runtime folder that is a symlink or another user's is
 * refused (the bridge stays off and says why when no place is left); a temporary folder another user
 * created first does not keep the bridge off (it comes up in the user's cache folder, where VS Code
 * looks); the Pi process opens no TCP listener; the token reaches no log; the bundle cannot call
 * what the bridge must never call; Pi's own quit removes the record and the socket.
 */
import assert from 'node:assert/strict';
import { chmodSync, chownSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { BridgeClient } from '../../src/node/bridge/bridgeClient';
import { newToken } from '../../src/node/bridge/bridgeToken';
import { readRecords } from '../../src/node/bridge/recordFiles';
import { discoveryFolders } from '../../src/node/bridge/runtimeFolder';
import { BRIDGE_DIST, closeLiveHome, eventually, followBridges, type LiveHome, makeLiveHome, stopFollowing } from './liveHarness';
import { tcpListenersOf, unixListenersOf } from './procSockets';

const modeOf = (path: string): number => lstatSync(path).mode & 0o777;

/** A folder another user made first: as root, really theirs (uid 12345); otherwise one open to everyone. */
function squat(folder: string): string {
	mkdirSync(folder, { recursive: true, mode: 0o700 });
	if (process.getuid?.() === 0) {
		chownSync(folder, 12345, 12345);
	} else {
		chmodSync(folder, 0o777);
	}
	return folder;
}

describe('the bridge\'s safety in a real Pi 1.6.0', function () {
	this.timeout(120_000);
	let home: LiveHome | undefined;
	afterEach(async () => {
		await closeLiveHome(home);
		home = undefined;
	});

	it('private folder, record and socket; wrong token refused; no TCP listener; the token in no log; gone when Pi quits', async () => {
		home = await makeLiveHome();
		const pi = home.startPi();
		const folder = home.bridgeFolder;
		const { records } = await eventually(async () => {
			const scan = await readRecords(folder).catch(() => undefined);
			return scan?.records.length === 1 ? scan : undefined;
		}, 'the record');
		const record = records[0]!.record;
		assert.equal(record.pid, pi.pid);
		assert.equal(modeOf(folder), 0o700);
		assert.equal(modeOf(join(folder, `${pi.pid}.json`)), 0o600);
		assert.ok(lstatSync(record.socket).isSocket());
		assert.equal(modeOf(record.socket), 0o600);
		assert.deepEqual(readdirSync(folder).sort(), [`${pi.pid}.json`, record.socket.slice(folder.length + 1)].sort(), 'no temporary file left');

		await assert.rejects(BridgeClient.connect({ ...record, token: newToken() }), /closed the connection/);
		await assert.rejects(BridgeClient.connect({ ...record, token: record.token.replace(/.$/, (c) => (c === '0' ? '1' : '0')) }), /closed the connection/);

		const logLines: string[] = [];
		const log = (line: string): void => void logLines.push(line);
		const bridges = followBridges({ folders: () => [folder], cleanStale: () => true, log: { info: log, warn: log, debug: log }, pollMs: 200 });
		bridges.start();
		try {
			const live = await eventually(() => bridges.pis[0], 'a connection with the right token');
			await pi.prompt('hello');
			await assert.rejects(live.client.putPrunerCommand('now'), /RPC mode/);
			assert.deepEqual(unixListenersOf(pi.pid), [record.socket], 'the check sees the bridge\'s socket');
			assert.deepEqual(tcpListenersOf(pi.pid), [], 'no TCP listener in the Pi process');
		} finally {
			await stopFollowing(bridges);
		}
		assert.ok(logLines.length > 0);
		await pi.stop();
		for (const [where, text] of [['Pi\'s stdout', pi.stdout], ['Pi\'s stderr', pi.stderr], ['VS Code\'s log', logLines.join('\n')]] as const) {
			assert.ok(!text.includes(record.token), `the token is in ${where}`);
		}
		assert.deepEqual(readdirSync(folder), [], 'Pi\'s quit removed the record and the socket');
	});

	it('a runtime folder that is a symbolic link or another user\'s is refused: the bridge stays off and says why', async () => {
		home = await makeLiveHome();
		// Every place the bridge may use: $XDG_RUNTIME_DIR's folder, the cache folder's and the temporary folder's.
		const elsewhere = join(home.root, 'elsewhere');
		mkdirSync(elsewhere, { mode: 0o700 });
		symlinkSync(elsewhere, home.bridgeFolder);
		mkdirSync(home.cacheDir, { mode: 0o700 });
		symlinkSync(elsewhere, join(home.cacheDir, 'pi-condense-vscode'));
		const tmp = join(home.root, 'tmp');
		const tmpFolder = squat(join(tmp, `pi-condense-vscode-${process.getuid?.() ?? 'user'}`));
		const pi = home.startPi({ TMPDIR: tmp });
		const notice = await pi.waitFor((record) => record.type === 'extension_ui_request' && record.method === 'notify', 60_000, 'the bridge\'s notice');
		assert.match(String(notice.message), /Pi Condense bridge is off: no private folder for the VS Code bridge/);
		assert.match(String(notice.message), /run\/pi-condense-vscode is a symbolic link/);
		assert.match(String(notice.message), /cache\/pi-condense-vscode is a symbolic link/);
		assert.match(String(notice.message), process.getuid?.() === 0 ? /owned by another user \(uid 12345\)/ : /open to other users/);
		assert.deepEqual(readdirSync(elsewhere), []);
		assert.deepEqual(readdirSync(tmpFolder), []);
		await pi.prompt('still works without the bridge');
		assert.equal(home.server.requests.length, 1);
	});

	it('with no $XDG_RUNTIME_DIR, a temporary folder another user created first does not keep the bridge off: it comes up in the user\'s cache folder, and VS Code finds it there', async () => {
		home = await makeLiveHome();
		const userHome = join(home.root, 'home');
		mkdirSync(userHome, { mode: 0o700 });
		const tmp = join(home.root, 'tmp');
		const squatted = squat(join(tmp, `pi-condense-vscode-${process.getuid?.() ?? 'user'}`));
		const env = { XDG_RUNTIME_DIR: '', XDG_CACHE_HOME: '', HOME: userHome, TMPDIR: tmp };
		const pi = home.startPi(env);
		const folder = join(userHome, '.cache', 'pi-condense-vscode');
		await eventually(async () => ((await readRecords(folder).catch(() => undefined))?.records.length === 1 ? true : undefined), 'the bridge\'s record in the cache folder');
		// VS Code's side computes the places from the same environment, in the same order.
		const on = { env, platform: process.platform, tmp, home: userHome, uid: process.getuid?.() };
		assert.deepEqual(discoveryFolders(on).slice(0, 2), [folder, squatted]);
		const lines: string[] = [];
		const log = (line: string): void => void lines.push(line);
		const bridges = followBridges({ folders: () => discoveryFolders(on), cleanStale: () => true, log: { info: log, warn: log, debug: log }, pollMs: 200 });
		bridges.start();
		try {
			const live = await eventually(() => bridges.pis.find((candidate) => candidate.state.pid === pi.pid), 'the bridge in the cache folder');
			assert.equal(live.state.piVersion, '1.6.0');
		} finally {
			await stopFollowing(bridges);
		}
		assert.equal(modeOf(folder), 0o700);
		assert.deepEqual(readdirSync(folder).filter((name) => name.endsWith('.json')), [`${pi.pid}.json`]);
		assert.deepEqual(readdirSync(squatted), [], 'nothing in the other user\'s folder');
		assert.ok(!pi.records.some((record) => record.type === 'extension_ui_request' && /bridge is off/.test(String(record.message))), 'no "bridge is off" notice');
	});

	it('the bundle Pi loads calls nothing that sends, changes the model or tools, or writes the session', () => {
		const bundle = readFileSync(join(BRIDGE_DIST, 'index.js'), 'utf8');
		for (const call of ['sendUserMessage', 'sendMessage', 'setModel', 'setThinkingLevel', 'setActiveTools', 'registerTool', 'registerProvider', 'appendEntry', 'setLabel', 'setSessionName']) {
			assert.ok(!new RegExp(`\\.${call}\\b`).test(bundle), `the bridge's bundle calls ${call}`);
		}
		// What it does call on Pi: observe, register its one command, and fill the editor.
		assert.match(bundle, /\.setEditorText\(/);
		assert.match(bundle, /\.getCommands\(\)/);
	});
});
