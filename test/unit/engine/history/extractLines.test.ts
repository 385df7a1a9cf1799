import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { extractLinesSteps, type ExtractedLines } from '../../../../src/engine/history/extractLines';
import { SMALL_TOOL_RESULT_BYTES } from '../../../../src/engine/history/searchText';
import { parseSessionSteps } from '../../../../src/engine/session';
import { EMPTY_SUMMARY, summarizeLines } from '../../../../src/engine/session/summary';
import { usageTotalsSteps } from '../../../../src/engine/session/usageTotals';
import { runSteps } from '../../../../src/engine/steps';
import { piCondenseSessionsDir, realSessionFiles } from '../../../support/paths';
import { rawLinesOf } from '../../../support/history/rawLines';

/** Every session file of the fixtures: the real Pi sessions and every reference session. */
function fixtureSessions(): string[] {
	const reference: string[] = [];
	const walk = (dir: string): void => {
		for (const name of readdirSync(dir)) {
			const path = join(dir, name);
			if (statSync(path).isDirectory()) {
				walk(path);
			} else if (name.endsWith('.jsonl')) {
				reference.push(path);
			}
		}
	};
	walk(piCondenseSessionsDir);
	return [...realSessionFiles(), ...reference];
}

function extract(text: string | Buffer, latin1 = true): ExtractedLines {
	return runSteps(extractLinesSteps(EMPTY_SUMMARY, rawLinesOf(text, { latin1 })));
}

describe('history index: extraction of session lines', () => {
	it('gives every fixture session the summary the session list gives it (the same rule), in one pass or line by line', () => {
		const files = fixtureSessions();
		assert.ok(files.length > 10);
		for (const file of files) {
			const text = readFileSync(file, 'utf8');
			const expected = summarizeLines(EMPTY_SUMMARY, text);
			assert.deepEqual(extract(text).summary, expected, file);
			// Line by line, as appends arrive.
			let summary = EMPTY_SUMMARY;
			for (const line of rawLinesOf(text)) {
				summary = runSteps(extractLinesSteps(summary, [line])).summary;
			}
			assert.deepEqual(summary, expected, `${file} line by line`);
		}
	});

	it('reads long lines one byte per character with exactly the values of the UTF-8 reading', () => {
		for (const file of fixtureSessions()) {
			const bytes = readFileSync(file);
			assert.deepEqual(extract(bytes, true), extract(bytes, false), file);
		}
	});

	it('takes one usage record per model request, summing to Pi 1.x\'s session totals', () => {
		for (const file of fixtureSessions()) {
			const text = readFileSync(file, 'utf8');
			const model = runSteps(parseSessionSteps(text));
			const totals = runSteps(usageTotalsSteps(model.entries));
			const usage = extract(text).usage;
			const sum = (pick: (u: ExtractedLines['usage'][number]) => number): number => usage.reduce((total, u) => total + pick(u), 0);
			assert.equal(sum((u) => u.input), totals.input, file);
			assert.equal(sum((u) => u.output), totals.output, file);
			assert.equal(sum((u) => u.cacheRead), totals.cacheRead, file);
			assert.equal(sum((u) => u.cacheWrite), totals.cacheWrite, file);
			assert.ok(Math.abs(sum((u) => u.cost) - totals.cost) < 1e-9, file);
			const assistants = model.entries.filter((entry) => entry.type === 'message' && entry.message.role === 'assistant').length;
			assert.equal(usage.filter((u) => u.source === 'assistant').length, assistants, `${file}: one record per assistant reply`);
			assert.equal(usage.filter((u) => u.source === 'usage').length, totals.usageEntries, file);
		}
	});

	it('keeps pi-condense\'s events by customType with their small facts, and leaves large tool outputs out of search', () => {
		const text = readFileSync(join(piCondenseSessionsDir, 'large-bulk-2.9.1', 'session.jsonl'), 'utf8');
		const extracted = extract(text);
		const types = new Set(extracted.events.map((event) => event.customType));
		for (const type of ['context-prune-summary', 'context-prune-index', 'context-prune-frontier', 'context-prune-chain']) {
			assert.ok(types.has(type), `${type} in ${[...types].join(', ')}`);
		}
		const frontier = extracted.events.find((event) => event.customType === 'context-prune-frontier');
		assert.equal(typeof (JSON.parse(frontier?.facts ?? '{}') as { outcome?: unknown }).outcome, 'string');
		const index = extracted.events.find((event) => event.customType === 'context-prune-index');
		assert.equal(typeof (JSON.parse(index?.facts ?? '{}') as { toolCallsCount?: unknown }).toolCallsCount, 'number');
		for (const doc of extracted.docs.filter((d) => d.role === 'tool')) {
			assert.ok(doc.bytes <= SMALL_TOOL_RESULT_BYTES);
		}
		assert.ok(extracted.docs.some((d) => d.role === 'user') && extracted.docs.some((d) => d.role === 'assistant') && extracted.docs.some((d) => d.role === 'custom'));
	});

	it('searches user and assistant text, tool names with the start of their arguments; thinking stays out', () => {
		const lines = [
			{ type: 'session', version: 3, id: 's', timestamp: '2026-01-01T00:00:00.000Z', cwd: '/p' },
			{ type: 'message', id: 'u1', parentId: null, timestamp: '2026-01-01T00:00:01.000Z', message: { role: 'user', content: [{ type: 'text', text: 'Why does the zebra build fail?' }], timestamp: 1 } },
			{ type: 'message', id: 'a1', parentId: 'u1', timestamp: '2026-01-01T00:00:02.000Z', message: { role: 'assistant', content: [{ type: 'thinking', thinking: 'secretthought' }, { type: 'text', text: 'Let me look.' }, { type: 'toolCall', id: 't', name: 'bash', arguments: { command: 'npm run build --verbose', huge: 'x'.repeat(10_000) } }], provider: 'anthropic', model: 'claude', usage: { input: 5, output: 7, cacheRead: 0, cacheWrite: 0, totalTokens: 12, cost: { total: 0.5 } }, stopReason: 'toolUse', timestamp: 2 } },
		];
		const extracted = extract(`${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
		assert.deepEqual(extracted.docs.map((d) => [d.role, d.entryId, d.line]), [['user', 'u1', 2], ['assistant', 'a1', 3]]);
		const assistant = extracted.docs[1]?.text ?? '';
		assert.match(assistant, /Let me look\.\nbash npm run build --verbose/);
		assert.doesNotMatch(assistant, /secretthought/);
		assert.ok(assistant.length < 400, 'arguments are cut');
		assert.deepEqual(extracted.usage.map((u) => [u.entryId, u.provider, u.model, u.input, u.output, u.cost, u.time]), [['a1', 'anthropic', 'claude', 5, 7, 0.5, 2]]);
	});

	it('never changes its input', () => {
		const text = readFileSync(realSessionFiles()[0] as string, 'utf8');
		const lines = rawLinesOf(text);
		const copy = JSON.parse(JSON.stringify(lines)) as unknown;
		runSteps(extractLinesSteps(EMPTY_SUMMARY, lines));
		assert.deepEqual(lines, copy);
	});
});
