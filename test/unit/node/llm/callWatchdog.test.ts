/**
 * The call watchdog: caller abort, idle timer restarted by activity, limits that are off.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { startCallWatchdog } from '../../../../src/node/llm/callWatchdog';
import { rejectsWithKind } from '../../../support/piAiForTests';

describe('callWatchdog', () => {
	it('fails at once, as aborted, when the caller already aborted', async () => {
		const watchdog = startCallWatchdog({ label: 'm', idleTimeoutMs: 1000, maxTimeoutMs: 1000, callerSignal: AbortSignal.abort() });
		assert.equal(watchdog.signal.aborted, true);
		await rejectsWithKind(watchdog.failure, 'aborted');
	});

	it('keeps a call alive while events arrive, and times it out once they stop', async () => {
		const watchdog = startCallWatchdog({ label: 'm', idleTimeoutMs: 300, maxTimeoutMs: 60_000 });
		for (let i = 0; i < 20; i++) {
			await sleep(20);
			watchdog.activity();
		}
		assert.equal(watchdog.signal.aborted, false);
		const error = await rejectsWithKind(watchdog.failure, 'timeout');
		assert.equal(watchdog.signal.aborted, true);
		assert.equal(watchdog.signal.reason, error);
	});

	it('treats a limit that is not a positive number as no limit', async () => {
		const watchdog = startCallWatchdog({ label: 'm', idleTimeoutMs: 0, maxTimeoutMs: Number.POSITIVE_INFINITY });
		await sleep(30);
		assert.equal(watchdog.signal.aborted, false);
		watchdog.dispose();
	});
});
