/**
 * "Pi holds this session" from the bridges first: a Pi whose bridge names the session holds it;
 * a Pi whose bridge names another session does not, even in the same folder; the process check
 * still answers for Pis without a bridge.
 */
import assert from 'node:assert/strict';
import type { BridgeState } from '../../../../src/engine/live/liveTypes';
import { bridgeAwareHolders, type LiveSessionSource } from '../../../../src/node/bridge/bridgeHolders';
import type { LivePi } from '../../../../src/node/bridge/liveBridges';
import type { PiHolderCheck } from '../../../../src/node/write';

const pi = (pid: number, sessionFile: string): LivePi => ({
	record: { protocol: 1, pid, socket: `/r/${pid}-0123456789abcdef.sock`, token: 'a'.repeat(64), piVersion: '1.6.0', cwd: '/p', sessionFile, startedAt: 1 },
	client: undefined as never,
	state: { pid, piVersion: '1.6.0', mode: 'tui', cwd: '/p', sessionFile, sessionId: 'x', leafId: null, model: undefined, thinkingLevel: undefined, busy: false, usage: undefined, piCondense: undefined, order: 'unknown', bridgeVersion: '0.1.0' } satisfies BridgeState,
	last: undefined,
});

function source(pis: LivePi[]): LiveSessionSource {
	return { pis, forSession: (path) => pis.find((candidate) => candidate.state.sessionFile === path) };
}

/** The process scan's answer: every Pi-like process in the session's folder. */
const processes = (pids: number[]): PiHolderCheck => () => Promise.resolve({ checked: true, holders: pids.map((pid) => ({ pid, command: 'pi', why: 'same-cwd' as const })) });

describe('bridgeAwareHolders', () => {
	it('a bridge naming the session holds it, without asking the processes', async () => {
		let asked = false;
		const check = bridgeAwareHolders(source([pi(10, '/p/a.jsonl')]), () => {
			asked = true;
			return Promise.resolve({ checked: true, holders: [] });
		});
		assert.deepEqual(await check({ sessionPath: '/p/a.jsonl', cwd: '/p' }), { checked: true, holders: [{ pid: 10, command: 'pi 1.6.0 (tui)', why: 'bridge' }] });
		assert.equal(asked, false);
	});

	it('a Pi whose bridge names another session does not hold this one; Pis without a bridge still count', async () => {
		const check = bridgeAwareHolders(source([pi(10, '/p/b.jsonl')]), processes([10, 11]));
		assert.deepEqual(await check({ sessionPath: '/p/a.jsonl', cwd: '/p' }), { checked: true, holders: [{ pid: 11, command: 'pi', why: 'same-cwd' }] });
		assert.deepEqual(await bridgeAwareHolders(source([pi(10, '/p/b.jsonl')]), processes([10]))({ sessionPath: '/p/a.jsonl', cwd: '/p' }), { checked: true, holders: [] });
	});
});
