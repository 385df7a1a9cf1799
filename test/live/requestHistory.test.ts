/**
 * The requests VS Code keeps per live session, with a real Pi 1.6.0 (RPC mode, the `stub-pruner` package before the
 * bridge) against the fake model server: every request Pi makes is kept, those of a tool call answered at once
 * included (the bridge serves its last few, so fetching one does not race the next); a message repeated from one
 * request to the next is held once; at most `keep()` are kept; a session no running Pi holds is forgotten.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { LiveBridges } from '../../src/node/bridge/liveBridges';
import { RequestHistory } from '../../src/node/bridge/requestHistory';
import { testScope } from '../support/testWork';
import { closeLiveHome, eventually, followBridges, type LiveHome, makeLiveHome, PI_EXTENSIONS, stopFollowing } from './liveHarness';

describe('the requests kept per live session (real Pi 1.6.0)', function () {
	this.timeout(180_000);
	let home: LiveHome | undefined;
	let bridges: LiveBridges | undefined;
	const work = testScope('requests');
	let keep = 20;
	const changed: string[] = [];

	before(async () => {
		home = await makeLiveHome([join(PI_EXTENSIONS, 'stub-pruner')]);
		const log = (): void => undefined;
		bridges = followBridges({ folders: () => [home?.bridgeFolder ?? ''], cleanStale: () => true, log: { info: log, warn: log, debug: log }, pollMs: 200 });
		bridges.start();
	});
	after(async () => {
		await work.close();
		await stopFollowing(bridges);
		await closeLiveHome(home);
	});

	it('keeps every request, each message held once across them, at most keep() of them; forgets the session when its Pi quits', async () => {
		assert.ok(home && bridges);
		const followed = bridges;
		const history = new RequestHistory({ work, bridges: followed, keep: () => keep, log: { debug: () => undefined, warn: (message) => assert.fail(message) } });
		history.onDidChange((path) => changed.push(path));
		const pi = home.startPi();
		const live = await eventually(() => followed.pis.find((candidate) => candidate.state.pid === pi.pid), 'VS Code connected to the Pi\'s bridge');
		// Two tool calls answered at once: four requests in quick succession.
		home.server.enqueue(
			{ text: 'One.', toolCalls: [{ id: 'call_1', name: 'bash', arguments: { command: 'echo one' } }] },
			{ text: 'Two.', toolCalls: [{ id: 'call_2', name: 'bash', arguments: { command: 'echo two' } }] },
		);
		await pi.prompt('Run both.');
		await pi.prompt('Now summarize.');
		const path = live.state.sessionFile ?? bridges.pis.find((candidate) => candidate.state.pid === pi.pid)?.state.sessionFile ?? '';
		const kept = await eventually(() => {
			const requests = history.requests(path);
			return requests.length === 4 ? requests : undefined;
		}, 'four requests kept');
		assert.deepEqual(kept.map((request) => request.head.seq), [1, 2, 3, 4]);
		assert.deepEqual(kept.map((request) => request.messages.length), [1, 3, 5, 7]);
		assert.ok(kept.every((request) => request.head.pid === pi.pid && request.head.piVersion === '1.6.0' && request.head.model === 'fake/fake-1'));
		// The first message of every request is one object: held once.
		assert.ok(kept.every((request) => request.messages[0] === kept[0]?.messages[0]));
		// The stub-pruner stubbed the earlier tool outputs in the fourth request: those messages are new ones.
		assert.match(kept[3]?.messages[2]?.text ?? '', /output pruned: call_1/);
		assert.notEqual(kept[3]?.messages[2], kept[2]?.messages[2]);
		assert.ok(changed.length >= 4);

		keep = 2;
		history.trim();
		assert.deepEqual(history.requests(path).map((request) => request.head.seq), [3, 4]);
		await pi.prompt('Once more.');
		await eventually(() => (history.requests(path).at(-1)?.head.seq === 5 ? true : undefined), 'the fifth request kept');
		assert.deepEqual(history.requests(path).map((request) => request.head.seq), [4, 5]);

		await pi.stop();
		await eventually(() => (history.requests(path).length === 0 ? true : undefined), 'the session forgotten once its Pi quit');
	});
});
