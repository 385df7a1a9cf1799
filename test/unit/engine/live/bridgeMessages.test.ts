/**
 * Both readings of the bridge's lines refuse anything that is not exactly a protocol message: wrong
 * types, unknown methods, free text, oversized fields, malformed digests. Real lines round-trip.
 */
import assert from 'node:assert/strict';
import { bridgeLine, parseBridgeMessage, parseClientMessage, RESULT_READERS, resultOf, TEXT_CHUNK_CHARS, type BridgeMethod, type BridgeResults } from '../../../../src/engine/live/bridgeMessages';
import { parseBridgeRecord } from '../../../../src/engine/live/bridgeRecord';
import type { BridgeState, SentDigest } from '../../../../src/engine/live/liveTypes';

const state: BridgeState = {
	pid: 4242, piVersion: '1.6.0', mode: 'tui', cwd: '/home/dev/project', sessionFile: '/home/dev/.pi/agent/sessions/--p--/s.jsonl',
	sessionId: '01a2', leafId: 'abcd1234', model: { provider: 'anthropic', id: 'claude-sonnet-5', contextWindow: 200000 }, thinkingLevel: 'high',
	busy: false, usage: { tokens: 14200, contextWindow: 200000, percent: 7.1 },
	piCondense: { name: 'pi-condense', version: '2.9.1', path: '/x/pi-condense', command: 'pruner' }, order: 'after-pi-condense', bridgeVersion: '0.1.0',
};
const sent: SentDigest = {
	seq: 3, at: 1700000000000, sessionFile: state.sessionFile, leafId: 'abcd1234', model: state.model,
	messages: [{ role: 'user', chars: 87, hash: '1_MPGUpvdlEC9xvI2lNFHM' }], system: { chars: 10, hash: 'k53uOuZI8kew8Gq7cmt2bk' }, payload: undefined, changedAfterBridge: 0,
};
const line = (value: unknown): string => JSON.stringify(value);

describe('bridge protocol lines', () => {
	it('VS Code reads the bridge\'s messages back as they were sent', () => {
		assert.deepEqual(parseBridgeMessage(line({ type: 'welcome', protocol: 1, state, last: sent })), { type: 'welcome', protocol: 1, state, last: sent });
		assert.deepEqual(parseBridgeMessage(line({ type: 'welcome', protocol: 1, state, last: null })), { type: 'welcome', protocol: 1, state, last: undefined });
		assert.deepEqual(parseBridgeMessage(line({ type: 'sent', sent })), { type: 'sent', sent });
		const bare = { ...state, sessionFile: undefined, model: undefined, usage: undefined, piCondense: undefined, leafId: null, thinkingLevel: undefined };
		assert.deepEqual(parseBridgeMessage(line({ type: 'state', state: bare })), { type: 'state', state: bare });
		assert.deepEqual(parseBridgeMessage(line({ type: 'result', id: 4, ok: false, error: 'no' })), { type: 'result', id: 4, ok: false, error: 'no' });
	});

	it('VS Code refuses malformed or oversized bridge lines', () => {
		for (const bad of [
			'not json', '[1]', line({ type: 'state' }), line({ type: 'state', state: { ...state, pid: -1 } }),
			line({ type: 'state', state: { ...state, order: 'sideways' } }), line({ type: 'state', state: { ...state, cwd: 'x'.repeat(5000) } }),
			line({ type: 'state', state: { ...state, piCondense: { ...state.piCondense, command: 'pruner now; rm' } } }),
			line({ type: 'sent', sent: { ...sent, messages: [{ role: 'user', chars: 1, hash: 'short' }] } }),
			line({ type: 'sent', sent: { ...sent, messages: 'all' } }),
			line({ type: 'chunk', id: 1, text: 'x'.repeat(TEXT_CHUNK_CHARS + 1) }),
			line({ type: 'result', id: 0, ok: true }), line({ type: 'result', id: 1, ok: 'yes' }), line({ type: 'run', command: 'ls' }),
		]) {
			assert.equal(parseBridgeMessage(bad), undefined, bad.slice(0, 120));
		}
	});

	it('the bridge accepts only the hello and the four calls, with their exact arguments', () => {
		assert.deepEqual(parseClientMessage(line({ type: 'hello', protocol: 1, token: 'ab' })), { type: 'hello', protocol: 1, token: 'ab' });
		assert.deepEqual(parseClientMessage(line({ type: 'call', id: 1, method: 'putPrunerCommand', command: 'now' })), { type: 'call', id: 1, method: 'putPrunerCommand', command: 'now' });
		assert.deepEqual(parseClientMessage(line({ type: 'call', id: 2, method: 'requestText', seq: 3, part: 'payload' })), { type: 'call', id: 2, method: 'requestText', seq: 3, part: 'payload' });
		for (const bad of [
			line({ type: 'call', id: 1, method: 'putPrunerCommand', command: 'now; /model x' }),
			line({ type: 'call', id: 1, method: 'sendUserMessage', text: '/pruner now' }),
			line({ type: 'call', id: 1, method: 'setEditorText', text: 'anything' }),
			line({ type: 'call', id: 1, method: 'requestText', seq: 1, part: '../etc' }),
			line({ type: 'call', method: 'state' }), line({ type: 'hello', protocol: 1 }), line({ type: 'hello', protocol: 1, token: 'x'.repeat(200) }),
		]) {
			assert.equal(parseClientMessage(bad), undefined, bad);
		}
	});
});

describe('the call -> result map the bridge and VS Code share', () => {
	const written: { readonly [M in BridgeMethod]: BridgeResults[M] } = {
		state, lastRequest: sent, requestText: { chars: 1234 }, putPrunerCommand: { text: '/pruner now' },
	};

	it('reads every result the bridge writes back as it was written, through the method\'s reader', () => {
		let id = 0;
		for (const method of Object.keys(written) as BridgeMethod[]) {
			const message = parseBridgeMessage(bridgeLine(resultOf({ id: ++id, method }, written[method])).trimEnd());
			assert.ok(message?.type === 'result' && message.ok, method);
			assert.deepEqual(RESULT_READERS[method](message.value), written[method], method);
		}
		assert.equal(RESULT_READERS.lastRequest(null), null, 'no request yet');
	});

	it('refuses a result of another call\'s shape', () => {
		for (const method of Object.keys(written) as BridgeMethod[]) {
			for (const other of Object.keys(written) as BridgeMethod[]) {
				if (other !== method && !(method === 'lastRequest' && other === 'lastRequest')) {
					assert.equal(RESULT_READERS[method](written[other]), undefined, `${other}'s result read as ${method}'s`);
				}
			}
		}
	});
});

describe('parseBridgeRecord', () => {
	const token = 'a'.repeat(64);
	const record = { protocol: 1, pid: 77, socket: '/run/user/1/pi-condense-vscode/77-0123456789abcdef.sock', token, piVersion: '1.6.0', cwd: '/p', sessionFile: '/p/s.jsonl', startedAt: 5 };
	const base = (socket: string): string => socket.slice(socket.lastIndexOf('/') + 1);

	it('reads a record a bridge writes', () => {
		assert.deepEqual(parseBridgeRecord(line(record), 77, base), { ok: true, record });
		assert.deepEqual(parseBridgeRecord(line({ ...record, sessionFile: undefined }), 77, base), { ok: true, record: { ...record, sessionFile: undefined } });
	});

	it('refuses a record that disagrees with its name, a bad token or a socket not named for its pid', () => {
		for (const [bad, pid] of [
			[{ ...record, token: 'A'.repeat(64) }, 77], [{ ...record, token: 'a'.repeat(63) }, 77],
			[{ ...record, socket: '/run/user/1/pi-condense-vscode/78-0123456789abcdef.sock' }, 77],
			[{ ...record, socket: '/etc/passwd' }, 77], [{ ...record, protocol: 2 }, 77], [{ ...record, pid: '77' }, 77], [record, 78],
		] as const) {
			assert.equal(parseBridgeRecord(line(bad), pid, base).ok, false, line(bad));
		}
		assert.equal(parseBridgeRecord('{', 77, base).ok, false);
	});
});
