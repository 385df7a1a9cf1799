/**
 * A real Pi 1.6.0 (RPC mode) that reloads its extensions twenty times, as `/reload` does: every reload
 * replaces the bridge's endpoint, and the one it replaces takes its `exit` listener with it, so the
 * process holds as many as before (never past Node's ten, where it warns MaxListenersExceededWarning),
 * and VS Code still connects to the bridge afterwards.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { RealPi } from '../support/realPi';
import { closeLiveHome, eventually, followBridges, makeLiveHome, PI_EXTENSIONS, stopFollowing, type LiveHome } from './liveHarness';

const RELOADS = 20;

/** The Pi process's `exit` listeners and how many Node takes before it warns, as the reloader fixture counts them. */
async function exitListeners(pi: RealPi): Promise<{ readonly count: number; readonly max: number }> {
	const from = pi.records.length;
	await pi.command({ type: 'prompt', message: '/test-exit-listeners' });
	const notice = await pi.waitFor((record) => record.type === 'extension_ui_request' && record.method === 'notify' && /^exit listeners: /.test(String(record.message)), 60_000, 'the count', from);
	const [, count = '', max = ''] = /^exit listeners: (\d+) of (\d+)$/.exec(String(notice.message)) ?? [];
	return { count: Number(count), max: Number(max) };
}

describe('the bridge in a real Pi 1.6.0 that reloads its extensions', function () {
	this.timeout(300_000);
	let home: LiveHome | undefined;
	after(async () => closeLiveHome(home));

	it(`keeps as many exit listeners through ${RELOADS} reloads (never enough for Node to warn), and still serves VS Code`, async () => {
		home = await makeLiveHome([join(PI_EXTENSIONS, 'pruner-stand-in'), join(PI_EXTENSIONS, 'reloader')]);
		const pi = home.startPi();
		const lines: string[] = [];
		const log = (line: string): void => void lines.push(line);
		const bridges = followBridges({ folders: () => [home?.bridgeFolder ?? ''], cleanStale: () => true, log: { info: log, warn: log, debug: log }, pollMs: 200 });
		bridges.start();
		try {
			const first = await eventually(() => bridges.pis.find((candidate) => candidate.state.pid === pi.pid), 'the bridge before the reloads');
			const before = await exitListeners(pi);
			for (let reload = 0; reload < RELOADS; reload++) {
				await pi.command({ type: 'prompt', message: '/test-reload' });
			}
			// Past ten, Node emits MaxListenersExceededWarning (Pi 1.6.0 silences process warnings; a Pi that does not prints it).
			const after = await exitListeners(pi);
			assert.equal(after.count, before.count, `${RELOADS} reloads left exit listeners behind`);
			assert.ok(after.count <= after.max, `${after.count} exit listeners, Node warns past ${after.max}`);
			const live = await eventually(() => bridges.pis.find((candidate) => candidate.state.pid === pi.pid && candidate.client !== first.client && !candidate.client.isClosed), 'the bridge after the reloads');
			assert.equal(await live.client.refreshState().then((state) => state.pid), pi.pid);
		} finally {
			await stopFollowing(bridges);
		}
	});
});
