/**
 * The bridge's safety in a real Pi 1.6.0: a wrong token is refused; the runtime folder, the record
 * and the socket are 0700, 0600 and 0600; a runtime folder that is a symlink or another user's is
 * refused (the bridge stays off and says why); the Pi process opens no TCP listener; the token
 * reaches no log; the bundle cannot call what the bridge must never call; Pi's own quit removes
 * the record and the socket.
 */
import assert from 'node:assert/strict';
import { chmodSync, chownSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { BridgeClient } from '../../src/node/bridge/bridgeClient';
import { newToken } from '../../src/node/bridge/bridgeToken';
import { readRecords } from '../../src/node/bridge/recordFiles';
import { BRIDGE_DIST, closeLiveHome, eventually, followBridges, type LiveHome, makeLiveHome, stopFollowing } from './liveHarness';
import { tcpListenersOf, unixListenersOf } from './procSockets';

const modeOf = (path: string): number => lstatSync(path).mode & 0o777;

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
			await live.client.putPrunerCommand('now');
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
		// Both places the bridge may use: $XDG_RUNTIME_DIR's folder and the temporary folder's.
		const elsewhere = join(home.root, 'elsewhere');
		mkdirSync(elsewhere, { mode: 0o700 });
		symlinkSync(elsewhere, home.bridgeFolder);
		const tmp = join(home.root, 'tmp');
		const tmpFolder = join(tmp, `pi-condense-vscode-${process.getuid?.() ?? 'user'}`);
		mkdirSync(tmpFolder, { recursive: true, mode: 0o700 });
		const root = process.getuid?.() === 0;
		if (root) {
			chownSync(tmpFolder, 65534, 65534); // as root: really another user's folder
		} else {
			chmodSync(tmpFolder, 0o755);
		}
		const pi = home.startPi({ TMPDIR: tmp });
		const notice = await pi.waitFor((record) => record.type === 'extension_ui_request' && record.method === 'notify', 30_000, 'the bridge\'s notice');
		assert.match(String(notice.message), /Pi Condense bridge is off: no private folder for the VS Code bridge/);
		assert.match(String(notice.message), /pi-condense-vscode is a symbolic link/);
		assert.match(String(notice.message), root ? /owned by another user \(uid 65534\)/ : /open to other users/);
		assert.deepEqual(readdirSync(elsewhere), []);
		assert.deepEqual(readdirSync(tmpFolder), []);
		await pi.prompt('still works without the bridge');
		assert.equal(home.server.requests.length, 1);
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
