/**
 * Pi 0.73.1's own SessionManager reads what we write: on copies of real sessions every earlier
 * entry is unchanged, our entries are on the active path and the last one is the leaf. Also the
 * two ways Pi can continue afterwards, checked with `checkWrittenEntriesSteps`: a reopened Pi chains
 * from our entries; a Pi that was already running strands them (spec §11, experiment 1).
 */
import assert from 'node:assert/strict';
import { copyFileSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parseSessionSteps } from '../../../../src/engine/session';
import { checkWrittenEntriesSteps, type EntryDraft } from '../../../../src/engine/write';
import { writeEntriesToSession, type WriteEntriesResult } from '../../../../src/node/write';
import { realSessionsDir } from '../../../support/paths';
import { loadPi } from '../../../support/pi';
import { makeOld, noPiRunning, TempDir } from '../../../support/tempSession';
import { runSteps } from '../../../../src/engine/steps';
import { testWork } from '../../../support/testWork';

const drafts: EntryDraft[] = [
	{ type: 'custom', customType: 'context-prune-index', data: { toolCalls: [{ toolCallId: 'toolu_x', toolName: 'bash', resultText: 'é\u2028\n', isError: false, turnIndex: 1, timestamp: 1 }] } },
	{ type: 'custom_message', customType: 'context-prune-summary', content: '**Summary**\nfiles listed\n\n---\nrefs: t1', display: false, details: { toolCallRefs: [{ shortId: 't1', toolCallId: 'toolu_x' }], toolNames: ['bash'], turnIndex: 1, timestamp: 1 } },
	{ type: 'custom', customType: 'context-prune-stats', data: { totalInputTokens: 10, totalOutputTokens: 2, totalCost: 0, callCount: 1, chainsCompressed: 0, rangesSummarized: 0 } },
];

const sources = ['large-session.migrated-v3.jsonl', 'before-compaction.migrated-v3.jsonl', 'pi-0.73.1-all-entry-types.synthetic.jsonl'];

function written(result: WriteEntriesResult): Extract<WriteEntriesResult, { kind: 'written' }> {
	assert.equal(result.kind, 'written', result.kind === 'refused' ? result.refusal.message : result.kind);
	return result;
}

/** Plain JSON copies, so later in-memory changes by Pi cannot leak into a comparison. */
const snapshot = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe('write: Pi 0.73.1 reads what we append', function () {
	this.timeout(120000);
	let dir: TempDir;
	beforeEach(() => {
		dir = new TempDir();
	});
	afterEach(() => {
		dir.remove();
	});

	for (const source of sources) {
		it(`keeps every entry of ${source} and puts ours on the active path`, async () => {
			const pi = await loadPi();
			const copy = join(dir.path, basename(source));
			copyFileSync(join(realSessionsDir, source), copy);
			makeOld(copy);
			const original = readFileSync(copy);
			const before = pi.SessionManager.open(copy, dir.path);
			const entriesBefore = snapshot(before.getEntries());
			const branchBefore = snapshot(before.getBranch()).map((entry) => entry.id);
			const messagesBefore = snapshot(before.buildSessionContext().messages);
			assert.deepEqual(readFileSync(copy), original, 'opening a v3 file must not change it');

			// The real process check: the header's cwd is from another machine, so nothing holds it.
			const result = written(await writeEntriesToSession(testWork, copy, drafts));
			const ours = result.entries.map((entry) => entry.entry.id);

			const after = pi.SessionManager.open(copy, dir.path);
			const entriesAfter = snapshot(after.getEntries());
			assert.equal(entriesAfter.length, entriesBefore.length + drafts.length);
			assert.deepEqual(entriesAfter.slice(0, entriesBefore.length), entriesBefore);
			assert.deepEqual(entriesAfter.slice(entriesBefore.length), result.entries.map((entry) => JSON.parse(entry.line) as unknown));
			assert.equal(after.getLeafId(), ours.at(-1));
			assert.deepEqual(after.getBranch().map((entry) => entry.id), [...branchBefore, ...ours]);
			const messagesAfter = snapshot(after.buildSessionContext().messages);
			assert.deepEqual(messagesAfter.slice(0, messagesBefore.length), messagesBefore);
			assert.deepEqual(messagesAfter.slice(messagesBefore.length).map((message) => message.role), ['custom']);
			const bytes = readFileSync(copy);
			assert.deepEqual(bytes.subarray(0, original.length), original);
			assert.equal(bytes.subarray(original.length).toString('utf8'), result.entries.map((entry) => entry.line).join(''));
			assert.deepEqual(runSteps(parseSessionSteps(bytes.toString('utf8'))).diagnostics, []);
		});
	}

	it('a reopened Pi continues from our entries; a Pi that was already running strands them', async () => {
		const pi = await loadPi();
		const source = join(realSessionsDir, 'pi-0.73.1-all-entry-types.synthetic.jsonl');
		const reopened = join(dir.path, 'reopened.jsonl');
		const running = join(dir.path, 'running.jsonl');
		copyFileSync(source, reopened);
		copyFileSync(source, running);
		makeOld(reopened);
		makeOld(running);
		const user = { role: 'user' as const, content: 'next', timestamp: Date.now() };

		const first = written(await writeEntriesToSession(testWork, reopened, drafts, { checkPiHolders: noPiRunning }));
		pi.SessionManager.open(reopened, dir.path).appendMessage(user);
		const continued = runSteps(parseSessionSteps(readFileSync(reopened, 'utf8')));
		assert.deepEqual(runSteps(checkWrittenEntriesSteps(continued, first.entries.map((entry) => entry.entry.id))), { kind: 'continued', laterEntries: 1 });

		// Pi already has the file open (in memory) when we write: simulated here by opening first and
		// telling the writer no process holds it, which is what an undetected Pi looks like.
		const attached = pi.SessionManager.open(running, dir.path);
		const second = written(await writeEntriesToSession(testWork, running, drafts, { checkPiHolders: noPiRunning }));
		const piEntryId = attached.appendMessage(user);
		const state = runSteps(checkWrittenEntriesSteps(runSteps(parseSessionSteps(readFileSync(running, 'utf8'))), second.entries.map((entry) => entry.entry.id)));
		assert.equal(state.kind, 'stranded');
		assert.deepEqual(state.kind === 'stranded' && [state.stranded, state.firstDivergingEntryId], [second.entries.map((entry) => entry.entry.id), piEntryId]);
		// And Pi agrees: on reopen its leaf is its own entry, and ours are off the path.
		const reread = pi.SessionManager.open(running, dir.path);
		assert.equal(reread.getLeafId(), piEntryId);
		assert.ok(!reread.getBranch().some((entry) => second.entries.some((ours) => ours.entry.id === entry.id)));
	});
});
