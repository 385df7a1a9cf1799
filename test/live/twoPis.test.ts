/**
 * Two real Pis at once, each with its own record: `/new` in one rebinds its record to the new
 * session, a SIGKILL of the other leaves a stale record that VS Code's side removes (and only
 * leaves in place when it may not write: restricted mode), and a VS Code that restarts finds the
 * running Pi again.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LiveBridges } from '../../src/node/bridge/liveBridges';
import { closeLiveHome, eventually, followBridges, type LiveHome, makeLiveHome, stopFollowing } from './liveHarness';

describe('several real Pis at once', function () {
	this.timeout(120_000);
	let home: LiveHome | undefined;
	const started: LiveBridges[] = [];
	const lines: string[] = [];
	const discovery = (cleanStale: boolean): LiveBridges => {
		const log = (line: string): void => void lines.push(line);
		const bridges = followBridges({ folders: () => [home?.bridgeFolder ?? ''], cleanStale: () => cleanStale, log: { info: log, warn: log, debug: log }, pollMs: 200 });
		started.push(bridges);
		bridges.start();
		return bridges;
	};
	after(async () => {
		for (const bridges of started) {
			await stopFollowing(bridges);
		}
		await closeLiveHome(home);
	});

	it('follows each Pi, /new in one, a SIGKILL of the other, and a restart of VS Code', async () => {
		home = await makeLiveHome();
		const first = home.startPi();
		const second = home.startPi();
		const bridges = discovery(true);
		let changes = 0;
		bridges.onDidChange(() => changes++);
		await eventually(() => (bridges.pis.length === 2 ? true : undefined), 'both Pis');
		const sessionOf = (pid: number): string | undefined => bridges.pis.find((pi) => pi.state.pid === pid)?.state.sessionFile;
		const firstSession = sessionOf(first.pid) ?? '';
		const secondSession = sessionOf(second.pid) ?? '';
		assert.notEqual(firstSession, secondSession);
		assert.equal(bridges.forSession(firstSession)?.state.pid, first.pid);
		assert.equal(bridges.forSession(secondSession)?.state.pid, second.pid);
		await first.prompt('first session');

		// /new in the first Pi: same process, same connection, its record now names the new session.
		const changesBefore = changes;
		await first.command({ type: 'new_session' });
		const renewed = await eventually(() => {
			const now = sessionOf(first.pid);
			return now !== undefined && now !== firstSession ? now : undefined;
		}, 'the first Pi\'s new session');
		await eventually(() => (changes > changesBefore ? true : undefined), 'a change told to the views');
		assert.equal(bridges.forSession(firstSession), undefined, 'the old session is no longer held');
		assert.equal(bridges.forSession(renewed)?.state.pid, first.pid);
		const recordFile = join(home.bridgeFolder, `${first.pid}.json`);
		await eventually(() => ((JSON.parse(readFileSync(recordFile, 'utf8')) as { sessionFile?: string }).sessionFile === renewed ? true : undefined), 'the rebound record');

		// A restricted VS Code sees the killed Pi's stale record but leaves it; a trusted one removes it and its socket.
		const restricted = discovery(false);
		await eventually(() => (restricted.pis.length === 2 ? true : undefined), 'the restricted window\'s connections');
		const secondRecord = join(home.bridgeFolder, `${second.pid}.json`);
		const secondSocket = (JSON.parse(readFileSync(secondRecord, 'utf8')) as { socket: string }).socket;
		await stopFollowing(restricted);
		await stopFollowing(bridges);
		await second.kill();
		const again = discovery(false);
		await eventually(() => (lines.some((line) => line.includes(`the record of Pi ${second.pid} is stale`)) ? true : undefined), 'the stale record noticed');
		assert.ok(existsSync(secondRecord), 'left in place in restricted mode');
		await stopFollowing(again);

		// VS Code restarts (trusted): it reconnects to the running Pi and cleans up after the killed one.
		const restarted = discovery(true);
		await eventually(() => (restarted.pis.length === 1 && !existsSync(secondRecord) ? true : undefined), 'the reconnection and the cleanup');
		assert.equal(restarted.pis[0]?.state.pid, first.pid);
		assert.equal(restarted.forSession(renewed)?.state.pid, first.pid);
		assert.equal(restarted.forSession(secondSession), undefined);
		assert.ok(!existsSync(secondSocket), 'the killed Pi\'s socket is removed too');
		assert.ok(lines.some((line) => line.includes(`removed the stale record of Pi ${second.pid}`)), lines.join('\n'));

		// And while it runs: a Pi killed under its eyes is dropped and its record removed at once.
		const third = home.startPi();
		await eventually(() => (restarted.pis.length === 2 ? true : undefined), 'the third Pi');
		const thirdRecord = join(home.bridgeFolder, `${third.pid}.json`);
		assert.ok(existsSync(thirdRecord));
		await third.kill();
		await eventually(() => (restarted.pis.length === 1 && !existsSync(thirdRecord) ? true : undefined), 'the killed Pi dropped and its record removed');
		assert.equal(restarted.pis[0]?.state.pid, first.pid);
	});
});
