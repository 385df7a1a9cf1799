import assert from 'node:assert/strict';
import { extractLinesSteps, type ExtractedLines } from '../../../../src/engine/history/extractLines';
import { LATIN1_LINE_BYTES } from '../../../../src/engine/history/rawLine';
import { EMPTY_SUMMARY } from '../../../../src/engine/session/summary';
import { runSteps } from '../../../../src/engine/steps';
import { rawLinesOf } from '../../../support/history/rawLines';
import { Random } from '../../../support/random';

/** Pieces of a JSON string's text as bytes: ASCII, UTF-8, escapes (byte-range ones too) and invalid bytes. */
const PIECES: readonly Buffer[] = [
	...['a', 'id-7', 'é', '✓', '😀', '\\u00e9', '\\u00ff', '\\u0041', '\\ud83d\\ude00', '\\n', '\\"'].map((text) => Buffer.from(text)),
	Buffer.from([0xc3]), Buffer.from([0xa9]), Buffer.from([0xff]), Buffer.from([0xfe]), Buffer.from([0xe2, 0x9c]),
];

/** A string's JSON text (without its quotes): ASCII most of the time, as Pi's are. */
function stringBytes(rng: Random): Buffer {
	if (rng.chance(0.6)) {
		return Buffer.from(rng.pick(['a1', 'anthropic', 'claude', 'context-prune-summary', 'path', 'command', '2026-03-04T05:06:07.890Z']));
	}
	return Buffer.concat(Array.from({ length: rng.int(1, 5) }, () => rng.pick(PIECES)));
}

/**
 * One long line of an entry of any kind the index reads, with every string it keeps (ids, provider,
 * model, customType, kind, timestamps, texts) and the keys of the objects whose entries it reads
 * drawn from `stringBytes`, padded past LATIN1_LINE_BYTES so it is read one byte per character.
 */
function longLine(rng: Random): Buffer {
	const slots: Buffer[] = [];
	const s = (): string => {
		slots.push(stringBytes(rng));
		return `@${slots.length - 1}@`;
	};
	const usage = { input: 3, output: 4, cacheRead: 0, cacheWrite: 0, totalTokens: 7, cost: { total: 0.25, input: 0.125, output: 0.125 } };
	const entries: Record<string, unknown>[] = [
		{ type: 'message', id: s(), timestamp: s(), message: { role: 'assistant', provider: s(), model: s(), usage, content: [{ type: 'text', text: s() }, { type: 'toolCall', name: s(), arguments: { [s()]: s(), [s()]: 1, [s()]: s() } }] } },
		{ type: 'message', id: s(), timestamp: s(), message: { role: 'toolResult', toolName: s(), usage, content: [{ type: 'text', text: s() }] } },
		{ type: 'message', id: s(), timestamp: s(), message: { role: 'bashExecution', command: s(), output: s(), timestamp: 5 } },
		{ type: 'custom', id: s(), timestamp: s(), customType: `context-prune-${s()}`, data: { [s()]: s(), [s()]: 2, [s()]: [1, 2], [s()]: true } },
		{ type: 'custom_message', id: s(), timestamp: s(), customType: `context-prune-${s()}`, details: { [s()]: s() }, content: s() },
		{ type: 'usage', id: s(), timestamp: s(), kind: s(), provider: s(), model: s(), usage },
		{ type: 'compaction', id: s(), timestamp: s(), summary: s(), usage },
	];
	const json = JSON.stringify({ ...rng.pick(entries), padding: 'x'.repeat(LATIN1_LINE_BYTES) });
	const parts = json.split(/@(\d+)@/);
	return Buffer.concat(parts.map((part, i) => (i % 2 === 0 ? Buffer.from(part) : slots[Number(part)] as Buffer)));
}

function extract(bytes: Buffer, latin1: boolean): ExtractedLines {
	return runSteps(extractLinesSteps(EMPTY_SUMMARY, rawLinesOf(bytes, { latin1 })));
}

describe('history index: the strings of a long line read one byte per character', () => {
	it('are every string and key the UTF-8 reading gives: ids, models, event types, facts, arguments, times and texts', () => {
		const rng = new Random(3707);
		const header = Buffer.from(`${JSON.stringify({ type: 'session', version: 3, id: 's', timestamp: '2026-01-01T00:00:00.000Z', cwd: '/p' })}\n`);
		for (let trial = 0; trial < 400; trial++) {
			const lines = Array.from({ length: 4 }, () => longLine(rng));
			const bytes = Buffer.concat([header, ...lines.flatMap((line) => [line, Buffer.from('\n')])]);
			const fast = extract(bytes, true);
			assert.ok(rawLinesOf(bytes).slice(1).every((line) => line.encoding === 'latin1'));
			assert.deepEqual(fast, extract(bytes, false), `trial ${trial} of seed ${rng.seed}`);
		}
	});
});
