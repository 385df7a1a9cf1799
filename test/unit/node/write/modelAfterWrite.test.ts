/**
 * The model a write reports (`session`, the caller's next base) must be the model a read of the
 * file gives, whether our entries landed cleanly (they are taken as prepared, not parsed again),
 * another writer appended after them, or the write was disturbed.
 */
import assert from 'node:assert/strict';
import { buildSessionContextSteps, parseSessionSteps } from '../../../../src/engine/session';
import { SessionSnapshot } from '../../../../src/engine/session/snapshot';
import type { EntryDraft } from '../../../../src/engine/write';
import { readSessionFileState, writeEntriesToSession, type WriteEntriesOptions, type WriteEntriesResult } from '../../../../src/node/write';
import { SessionBuilder, text, toolCall } from '../../../support/sessionBuilder';
import { observable } from '../../../support/sessionModelCheck';
import { appendLikePi, noPiRunning, read, TempDir } from '../../../support/tempSession';
import { runSteps } from '../../../../src/engine/steps';
import { testWork } from '../../../support/testWork';

const options: WriteEntriesOptions = { checkPiHolders: noPiRunning, maxWaitMs: 0 };

/** Drafts as a flush makes them, with what JSON drops or changes: undefined fields, non-ASCII text, a line longer than a read piece. */
const drafts: EntryDraft[] = [
	{ type: 'custom', customType: 'context-prune-index', data: { toolCalls: [{ toolCallId: 'c1', resultText: 'é✓ '.repeat(40_000), skipped: undefined }] } },
	{ type: 'custom_message', customType: 'context-prune-summary', content: 'summary of t1 — ✓', display: false, details: undefined },
	...Array.from({ length: 300 }, (_, i): EntryDraft => ({ type: 'custom', customType: 'context-prune-stats', data: { i, at: new Date(0), nothing: undefined } })),
];

function sessionText(): string {
	const builder = new SessionBuilder();
	builder.user('list files');
	builder.assistant([toolCall('c1', 'bash', { command: 'ls' })]);
	builder.toolResult('c1', 'bash', 'a\nb\n');
	builder.assistant([text('Two files.')]);
	return builder.text();
}

/** The file as last read by a caller that has already built its context (the seeded path). */
async function baseOf(path: string): Promise<NonNullable<WriteEntriesOptions['base']>> {
	const state = await readSessionFileState(testWork, path);
	assert.equal(state.kind, 'ok');
	if (state.kind !== 'ok') {
		throw new Error('unreadable');
	}
	runSteps(buildSessionContextSteps(state.state.model));
	return state.state;
}

function sessionOf(result: WriteEntriesResult): NonNullable<WriteEntriesResult['session']> {
	assert.ok(result.session, 'the write reports the session after it');
	return result.session;
}

describe('write: the model after a write is the model of the file', () => {
	let dir: TempDir;
	beforeEach(() => {
		dir = new TempDir();
	});
	afterEach(() => {
		dir.remove();
	});

	it('takes our entries as prepared when they landed cleanly, as a cold read gives them', async () => {
		const path = dir.file('clean.jsonl', sessionText());
		const base = await baseOf(path);
		const result = await writeEntriesToSession(testWork, path, drafts, { ...options, base });
		assert.equal(result.kind, 'written');
		assert.deepStrictEqual(observable(sessionOf(result).model), observable(runSteps(parseSessionSteps(read(path)))));
		assert.equal(sessionOf(result).consumedBytes, Buffer.byteLength(read(path)));
		assert.ok(!('nothing' in (result.entries[2]?.entry as { data: object }).data), 'entries are what the file holds (no undefined fields)');
	});

	it('parses what another writer appended after our last line', async () => {
		const path = dir.file('after.jsonl', sessionText());
		const base = await baseOf(path);
		const result = await writeEntriesToSession(testWork, path, drafts, { ...options, base, hooks: {
			afterLine: (index) => {
				if (index === drafts.length - 1) {
					appendLikePi(path, { type: 'custom', customType: 'pi-ext', id: 'pi000060', parentId: null, timestamp: '2026-02-01T00:00:00.000Z' });
				}
			},
		} });
		assert.equal(result.kind, 'written');
		assert.equal(sessionOf(result).model.leafId, 'pi000060');
		assert.deepStrictEqual(observable(sessionOf(result).model), observable(runSteps(parseSessionSteps(read(path)))));
		assert.equal(sessionOf(result).consumedBytes, Buffer.byteLength(read(path)));
	});

	it('builds no model when asked not to, and leaves the base model\'s index to its own reader', async () => {
		const path = dir.file('none.jsonl', sessionText());
		const base = await baseOf(path);
		const result = await writeEntriesToSession(testWork, path, drafts, { ...options, base, modelAfterWrite: false });
		assert.equal(result.kind, 'written');
		assert.equal(result.session, undefined);
		assert.equal(result.entries.length, drafts.length);
		const [first] = result.entries;
		assert.equal(first?.entry.type === 'custom' && first.entry.data, (drafts[0] as { data?: unknown }).data, 'the entries share the drafts\' data: nothing more is held');
		// The reader that follows the file (the store) still extends its model's index in place.
		assert.ok(base.model instanceof SessionSnapshot);
		assert.equal(base.model.index.canExtend(base.model.entries.length), true);
	});

	it('parses everything read back when a foreign line came before ours', async () => {
		const path = dir.file('before.jsonl', sessionText());
		const base = await baseOf(path);
		const foreign = { type: 'custom', customType: 'pi-ext', id: 'pi000061', parentId: null, timestamp: '2026-02-01T00:00:00.000Z' };
		const result = await writeEntriesToSession(testWork, path, drafts, { ...options, base, hooks: { afterLastCheck: () => appendLikePi(path, foreign) } });
		assert.equal(result.kind, 'disturbed');
		assert.ok(result.session);
		assert.deepStrictEqual(observable(sessionOf(result).model), observable(runSteps(parseSessionSteps(read(path)))));
	});
});
