/**
 * Entry envelopes: Pi's key order, fresh 8-hex ids unique in the file and the batch, parent
 * chaining from the last entry, injected clock; and byte parity with lines Pi 0.73.1 writes itself.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prepareEntriesSteps, InvalidDraftError, type EntryDraft, type RandomBytes } from '../../../../src/engine/write';
import { loadPi } from '../../../support/pi';
import { runSteps } from '../../../../src/engine/steps';

/** A random source that returns the given ids (as bytes) in turn. */
function idSource(...ids: string[]): RandomBytes {
	let next = 0;
	return () => {
		const id = ids[next++ % ids.length] as string;
		return Uint8Array.from(id.match(/../g)?.map((pair) => parseInt(pair, 16)) ?? []);
	};
}

const fixedClock = (iso: string) => () => new Date(iso);

describe('write: entry envelopes', () => {
	it('writes custom entries with Pi\'s key order and leaves out an undefined data', () => {
		const [withData, withoutData] = runSteps(prepareEntriesSteps(
			[{ type: 'custom', customType: 'context-prune-index', data: { toolCalls: [] } }, { type: 'custom', customType: 'marker' }],
			{ parentId: 'aaaa0001', isTaken: () => false, randomBytes: idSource('0a1b2c3d', 'deadbeef'), now: fixedClock('2026-03-01T10:00:00.123Z') },
		));
		assert.equal(withData?.line, '{"type":"custom","customType":"context-prune-index","data":{"toolCalls":[]},"id":"0a1b2c3d","parentId":"aaaa0001","timestamp":"2026-03-01T10:00:00.123Z"}\n');
		assert.equal(withoutData?.line, '{"type":"custom","customType":"marker","id":"deadbeef","parentId":"0a1b2c3d","timestamp":"2026-03-01T10:00:00.123Z"}\n');
	});

	it('writes custom messages with Pi\'s key order, details optional', () => {
		const drafts: EntryDraft[] = [
			{ type: 'custom_message', customType: 'context-prune-summary', content: 'summary', display: false, details: { toolNames: ['bash'] } },
			{ type: 'custom_message', customType: 'note', content: [{ type: 'text', text: 'hi' }], display: true },
		];
		const [first, second] = runSteps(prepareEntriesSteps(drafts, { parentId: null, isTaken: () => false, randomBytes: idSource('00000001', '00000002'), now: fixedClock('2026-03-01T10:00:00.000Z') }));
		assert.equal(first?.line, '{"type":"custom_message","customType":"context-prune-summary","content":"summary","display":false,"details":{"toolNames":["bash"]},"id":"00000001","parentId":null,"timestamp":"2026-03-01T10:00:00.000Z"}\n');
		assert.equal(second?.line, '{"type":"custom_message","customType":"note","content":[{"type":"text","text":"hi"}],"display":true,"id":"00000002","parentId":"00000001","timestamp":"2026-03-01T10:00:00.000Z"}\n');
	});

	it('skips ids used in the file or earlier in the same batch, and chains parents', () => {
		const used = new Set(['11111111', '22222222']);
		const prepared = runSteps(prepareEntriesSteps(
			Array.from({ length: 3 }, (): EntryDraft => ({ type: 'custom', customType: 'x' })),
			{ parentId: 'last0000', isTaken: (id) => used.has(id), randomBytes: idSource('11111111', '33333333', '33333333', '22222222', '44444444', '55555555'), now: () => new Date() },
		));
		assert.deepEqual(prepared.map((p) => p.entry.id), ['33333333', '44444444', '55555555']);
		assert.deepEqual(prepared.map((p) => p.entry.parentId), ['last0000', '33333333', '44444444']);
	});

	it('asks the clock once per entry; real random bytes give 8 lowercase hex ids', () => {
		let tick = Date.parse('2026-01-01T00:00:00.000Z');
		const prepared = runSteps(prepareEntriesSteps(Array.from({ length: 50 }, (): EntryDraft => ({ type: 'custom', customType: 'x' })), {
			parentId: null,
			isTaken: () => false,
			randomBytes: (count) => randomBytes(count),
			now: () => new Date(tick++),
		}));
		assert.ok(prepared.every((entry) => /^[0-9a-f]{8}$/.test(entry.entry.id)));
		assert.equal(new Set(prepared.map((entry) => entry.entry.id)).size, 50);
		assert.equal(prepared[0]?.entry.timestamp, '2026-01-01T00:00:00.000Z');
		assert.equal(prepared[49]?.entry.timestamp, '2026-01-01T00:00:00.049Z');
	});

	it('gives up on a random source that only repeats used ids', () => {
		assert.throws(() => runSteps(prepareEntriesSteps([{ type: 'custom', customType: 'x' }], {
			parentId: null, isTaken: () => true, randomBytes: idSource('00000000'), now: () => new Date(),
		})), /random source/);
	});

	it('refuses drafts Pi would not read back as the intended entry', () => {
		const context = { parentId: null, isTaken: () => false, randomBytes: idSource('00000001'), now: () => new Date() };
		const bad: unknown[] = [
			{ type: 'custom', customType: '' },
			{ type: 'custom_message', customType: 'x', content: 5, display: false },
			{ type: 'custom_message', customType: 'x', content: 'ok', display: 'no' },
			{ type: 'custom', customType: 'x', data: { big: 1n } },
			{ type: 'message', customType: 'x' },
		];
		for (const draft of bad) {
			assert.throws(() => runSteps(prepareEntriesSteps([draft as EntryDraft], context)), InvalidDraftError, JSON.stringify(draft, (_k, v: unknown) => typeof v === 'bigint' ? 'bigint' : v));
		}
	});

	it('produces byte-identical lines to Pi 0.73.1\'s appendCustomEntry / appendCustomMessageEntry', async () => {
		const pi = await loadPi();
		const dir = mkdtempSync(join(tmpdir(), 'pi-envelope-'));
		try {
			const manager = pi.SessionManager.create(dir, dir);
			manager.appendMessage({ role: 'user', content: 'hello', timestamp: 1 });
			manager.appendMessage({ role: 'assistant', content: [{ type: 'text', text: 'hi' }], api: 'anthropic-messages', provider: 'anthropic', model: 'm', usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } }, stopReason: 'stop', timestamp: 2 });
			manager.appendCustomEntry('with-data', { n: 1, list: ['a'] });
			manager.appendCustomEntry('no-data');
			manager.appendCustomMessageEntry('msg', 'text content', false, { k: 'v' });
			manager.appendCustomMessageEntry('msg2', [{ type: 'text', text: 'block' }], true);
			const lines = readFileSync(manager.getSessionFile() as string, 'utf8').split('\n').filter((line) => line !== '').slice(-4);
			const drafts: EntryDraft[] = [
				{ type: 'custom', customType: 'with-data', data: { n: 1, list: ['a'] } },
				{ type: 'custom', customType: 'no-data' },
				{ type: 'custom_message', customType: 'msg', content: 'text content', display: false, details: { k: 'v' } },
				{ type: 'custom_message', customType: 'msg2', content: [{ type: 'text', text: 'block' }], display: true },
			];
			const piEntries = lines.map((line) => JSON.parse(line) as { id: string; parentId: string; timestamp: string });
			let at = 0;
			const ours = runSteps(prepareEntriesSteps(drafts, {
				parentId: piEntries[0]?.parentId ?? null,
				isTaken: () => false,
				randomBytes: idSource(...piEntries.map((entry) => entry.id)),
				now: () => new Date(piEntries[at++]?.timestamp ?? 0),
			}));
			assert.deepEqual(ours.map((entry) => entry.line), lines.map((line) => `${line}\n`));
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});
