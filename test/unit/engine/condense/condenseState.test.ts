import assert from 'node:assert/strict';
import { join } from 'node:path';
import { buildCondenseStateSteps } from '../../../../src/engine/condense/state/buildCondenseState';
import { coverageOf, resolveRecord, stubTarget } from '../../../../src/engine/condense/state/indexLookups';
import type { ToolResultMessage } from '../../../../src/engine/session/types';
import { LATEST, R200 } from '../../../support/releases';
import { assistant, call, chain, record, result, BranchBuilder, text, user } from './builders';
import { deepFreeze, loadSession, REFERENCE_DIR } from './piReference';
import { runSteps } from '../../../../src/engine/steps';
import { releaseRules } from '../../../../src/engine/release/releases';

/** A call `id` answered at `ts`, summarized as `ref` and indexed (2.6.0+ writers add the result timestamp). */
function summarizedCall(s: BranchBuilder, id: string, ts: number, output: string, ref: string, occurrenceKeyed: boolean): BranchBuilder {
	const extra = occurrenceKeyed ? { resultTimestamp: ts } : {};
	return s.messages(assistant(ts - 5, call(id, 'bash')), result(id, 'bash', ts, output))
		.summary(`summary of ${output}`, [occurrenceKeyed ? [ref, id, ts] : [ref, id]]).index(record(id, 'bash', output, extra));
}

function resultAt(s: BranchBuilder, timestamp: number): ToolResultMessage {
	const found = s.context.find((m): m is ToolResultMessage => m.role === 'toolResult' && m.timestamp === timestamp);
	assert.ok(found, `no result at ${timestamp}`);
	return found;
}

describe('buildCondenseState', () => {
	it('rebuilds refs, aliases, chains, frontier and stats from the basic reference session (2.0.0)', () => {
		const { branch } = loadSession(join(REFERENCE_DIR, 'basic', 'session.jsonl'));
		const state = runSteps(buildCondenseStateSteps(deepFreeze(branch), R200));
		assert.equal(state.keying, 'bare');
		assert.deepEqual([...state.refs.keys()].sort(), ['t1', 't2', 't3', 't4', 't6', 't7', 't8']);
		assert.equal(state.refs.get('t3')?.record.toolCallId, 'call_p0_t1_0');
		assert.equal(state.nextRefNumber, 9);
		assert.equal(state.nextBlockNumber, 3);
		assert.deepEqual(state.chains.map((c) => c.entry.blockId), ['b1', 'b2']);
		assert.equal(state.frontier?.lastAttemptedToolCallId, 'call_p2_t1_0');
		assert.equal(state.stats?.chainsCompressed, 2);
		// The spilled log has no tN; the re-read of util.js is an alias sharing t4.
		assert.deepEqual(state.spilled.map((s) => [s.record.toolCallId, s.shortRef]), [['call_p1_t2_0', undefined]]);
		const alias = [...state.aliases.values()][0];
		assert.equal(alias?.toolCallId, 'call_p2_t0_0');
		assert.equal(alias?.shortRef, 't4');
		assert.equal(alias?.original?.shortRef, 't4');
		// The chain without a fused summary concatenates its covering summary.
		assert.match(state.chains[1]?.bodyText ?? '', /^- edit src\/app\.js: OK/);
	});

	it('up to 2.5.0 keys records by bare id: a later record of a reused id replaces the earlier one', () => {
		const s = new BranchBuilder().messages(user(100));
		summarizedCall(s, 'bash_0', 120, 'FIRST', 't1', false);
		summarizedCall(s.messages(user(200)), 'bash_0', 220, 'SECOND', 't2', false);
		for (const version of ['2.0.0', '2.5.0'] as const) {
			const state = runSteps(buildCondenseStateSteps(s.branch, releaseRules(version)));
			assert.deepEqual([...state.records.keys()], ['bash_0']);
			assert.equal(state.records.get('bash_0')?.record.resultText, 'SECOND');
			// Both refs name the same key; the later summary's tN is the key's ref.
			assert.equal(state.shortRefs.get('bash_0'), 't2');
			assert.equal(state.refs.get('t1')?.record.resultText, 'SECOND');
			// The live and the old result are both "summarized" by the bare id.
			assert.equal(coverageOf(state, resultAt(s, 120))?.kind, 'record');
			assert.equal(stubTarget(state, resultAt(s, 120))?.ref, 't2');
		}
	});

	it('from 2.6.0 keys records by occurrence, so a reused id stays apart; legacy records keep the bare id', () => {
		const s = new BranchBuilder().messages(user(100));
		summarizedCall(s, 'bash_0', 120, 'FIRST', 't1', true);
		summarizedCall(s.messages(user(200)), 'bash_0', 220, 'SECOND', 't2', true);
		s.messages(user(300), assistant(310, call('bash_0', 'bash')), result('bash_0', 'bash', 320, 'LIVE'));
		const state = runSteps(buildCondenseStateSteps(s.branch, LATEST));
		assert.deepEqual([...state.records.keys()], ['bash_0@120', 'bash_0@220']);
		assert.deepEqual(state.keysByBareId.get('bash_0'), ['bash_0@120', 'bash_0@220']);
		assert.equal(stubTarget(state, resultAt(s, 120))?.ref, 't1');
		assert.equal(stubTarget(state, resultAt(s, 220))?.ref, 't2');
		assert.equal(stubTarget(state, resultAt(s, 320)), undefined, 'a live result reusing the id is not summarized');
		assert.equal(resolveRecord(state, 'bash_0'), undefined, 'a bare id with two keys resolves to nothing');
		assert.equal(resolveRecord(state, 'bash_0@220')?.record.resultText, 'SECOND');
	});

	it('2.6.0+ reads a pre-2.6.0 record as legacy-only until an occurrence of its id is indexed', () => {
		const legacySession = (): BranchBuilder => {
			const s = summarizedCall(new BranchBuilder().messages(user(100)), 'bash_0', 120, 'OLD', 't1', false);
			return s.messages(user(200), assistant(210, call('bash_0', 'bash')), result('bash_0', 'bash', 220, 'LIVE'));
		};
		const legacy = legacySession();
		const state = runSteps(buildCondenseStateSteps(legacy.branch, LATEST));
		assert.deepEqual([...state.records.keys()], ['bash_0']);
		// The live result is stubbed with the legacy record's ref (the limitation 2.6.0 accepts).
		assert.equal(stubTarget(state, resultAt(legacy, 220))?.ref, 't1');
		assert.equal(stubTarget(state, resultAt(legacy, 220))?.lookupKey, 'bash_0');
		// Once an occurrence-keyed record of the id exists, the legacy record is no longer legacy-only.
		const mixed = legacySession().index(record('bash_0', 'bash', 'LIVE', { resultTimestamp: 220 }));
		const after = runSteps(buildCondenseStateSteps(mixed.branch, LATEST));
		assert.equal(stubTarget(after, resultAt(mixed, 120)), undefined, 'the old result is un-stubbed');
		assert.equal(stubTarget(after, resultAt(mixed, 220))?.lookupKey, 'bash_0@220');
	});

	it('registers dedup aliases after every entry, with the original\'s tN, keyed as the release keys them', () => {
		const build = (occurrenceKeyed: boolean): BranchBuilder => {
			const s = new BranchBuilder().messages(user(100), assistant(105, call('r1', 'read')), result('r1', 'read', 110, 'same'))
				.messages(assistant(115, call('r2', 'read')), result('r2', 'read', 120, 'same'));
			// The alias entry comes before the summary that gives its original a tN.
			if (occurrenceKeyed) {
				s.alias('r2', 'r1', 120, 110);
			} else {
				s.alias('r2', 'r1');
			}
			return s.summary('s', [occurrenceKeyed ? ['t5', 'r1', 110] : ['t5', 'r1']])
				.index(record('r1', 'read', 'same', occurrenceKeyed ? { resultTimestamp: 110 } : {}));
		};
		const bare = runSteps(buildCondenseStateSteps(build(false).branch, R200));
		assert.equal(bare.aliases.get('r2')?.shortRef, 't5');
		assert.equal(bare.aliases.get('r2')?.original?.key, 'r1');
		const occurrence = runSteps(buildCondenseStateSteps(build(true).branch, LATEST));
		assert.equal(occurrence.aliases.get('r2@120')?.shortRef, 't5');
		assert.equal(occurrence.aliases.get('r2@120')?.original?.key, 'r1@110');
		// A legacy alias (no timestamps) is keyed by the bare id, so 2.6.0+ no longer matches the result.
		const legacy = runSteps(buildCondenseStateSteps(build(false).branch, LATEST));
		assert.ok(legacy.aliases.has('r2'));
		assert.equal(stubTarget(legacy, resultAt(build(false), 120)), undefined);
	});

	it('registers a backfilled entry\'s refs from 2.9.0 only; older readers index its records but skip its refs', () => {
		const s = new BranchBuilder().messages(user(100), assistant(105, call('b', 'bash')), result('b', 'bash', 110, 'out'))
			.summary('s', [['t3', 'x', 50]])
			.backfill([record('b', 'bash', 'out', { turnIndex: -1, timestamp: 110, resultTimestamp: 110 })], [['t4', 'b', 110]]);
		const v290 = runSteps(buildCondenseStateSteps(s.branch, releaseRules('2.9.0')));
		assert.equal(v290.refs.get('t4')?.record.toolCallId, 'b');
		assert.equal(v290.records.get('b@110')?.backfilled, true);
		assert.equal(v290.nextRefNumber, 5);
		for (const version of ['2.8.0', '2.0.0'] as const) {
			const state = runSteps(buildCondenseStateSteps(s.branch, releaseRules(version)));
			assert.equal(state.refs.has('t4'), false, version);
			assert.equal(state.nextRefNumber, 4, `${version}: the tN counter is not advanced (t4 can be issued twice)`);
			assert.equal(state.records.size, 1, version);
		}
	});

	it('lets a later ref with the same tN win', () => {
		const s = new BranchBuilder().messages(user(1), assistant(2, call('a', 'bash')), result('a', 'bash', 3, 'A'), assistant(4, call('b', 'bash')), result('b', 'bash', 5, 'B'))
			.backfill([record('a', 'bash', 'A', { resultTimestamp: 3 })], [['t1', 'a', 3]])
			.summary('s', [['t1', 'b', 5]]).index(record('b', 'bash', 'B', { resultTimestamp: 5 }));
		const state = runSteps(buildCondenseStateSteps(s.branch, LATEST));
		assert.equal(state.refs.get('t1')?.record.toolCallId, 'b');
		assert.equal(state.records.get('a@3')?.shortRef, 't1', 'the earlier record keeps its own tN for its key');
	});

	it('continues ref and block numbering from the maxima, gaps included', () => {
		const s = new BranchBuilder().messages(user(1), assistant(2, call('a', 'bash')), result('a', 'bash', 3, 'o'))
			.summary('s', [['t2', 'a'], ['t9', 'zz']]).index(record('a', 'bash', 'o'))
			.chain(chain('b4', 1, 2)).chain(chain('b2', 50, 60));
		const state = runSteps(buildCondenseStateSteps(s.branch, LATEST));
		assert.equal(state.nextRefNumber, 10);
		assert.equal(state.nextBlockNumber, 5);
		assert.deepEqual(state.chains.map((c) => c.entry.blockId), ['b4', 'b2']);
	});

	it('lets the last frontier, stats and same-start chain win; only 2.4.3 keeps the thinking boundary', () => {
		const s = new BranchBuilder()
			.frontier('a').frontier('b', { thinkingStripBoundaryTimestamp: 777 })
			.custom('context-prune-stats', { callCount: 1 }).custom('context-prune-stats', { callCount: 4, totalCost: 0.5 })
			.chain(chain('b1', 10, 20)).chain(chain('b2', 10, 30));
		const state = runSteps(buildCondenseStateSteps(s.branch, releaseRules('2.4.3')));
		assert.equal(state.frontier?.lastAttemptedToolCallId, 'b');
		assert.equal(state.frontier?.thinkingStripBoundaryTimestamp, 777);
		assert.deepEqual(state.stats, { totalInputTokens: 0, totalOutputTokens: 0, totalCost: 0.5, callCount: 4, chainsCompressed: 0, rangesSummarized: 0 });
		assert.deepEqual(state.chains.map((c) => c.entry.blockId), ['b2']);
		assert.equal(state.nextBlockNumber, 3);
		for (const version of ['2.4.2', '2.5.0', '2.9.1'] as const) {
			const other = runSteps(buildCondenseStateSteps(s.branch, releaseRules(version)));
			assert.equal(other.frontier?.lastAttemptedToolCallId, 'b');
			assert.equal('thinkingStripBoundaryTimestamp' in (other.frontier ?? {}), false, version);
		}
	});

	it('looks chain bodies up as the release does: bare ids up to 2.5.0, droppedOccurrenceKeys from 2.6.0', () => {
		const s = new BranchBuilder().messages(user(100), assistant(105, call('x', 'bash')), result('x', 'bash', 110, 'o'), assistant(120, text('done')))
			.summary('NEW', [['t1', 'x', 110]]).summary('OLD', [['t2', 'x']])
			.chain(chain('b1', 100, 120, { droppedToolCallIds: ['x'], droppedOccurrenceKeys: ['x@110'] }))
			.chain(chain('b2', 200, 220, { droppedToolCallIds: ['x'] }));
		const v200 = runSteps(buildCondenseStateSteps(s.branch, R200));
		assert.deepEqual(v200.chains.map((c) => c.bodyText), ['NEW\n\nOLD', 'NEW\n\nOLD']);
		const v291 = runSteps(buildCondenseStateSteps(s.branch, LATEST));
		assert.deepEqual(v291.chains.map((c) => c.bodyText), ['NEW', 'OLD']);
	});

	it('skips malformed entries with a diagnostic carrying the line, and never throws', () => {
		const s = new BranchBuilder().messages(user(1), assistant(2, call('a', 'bash')), result('a', 'bash', 3, 'o'))
			.custom('context-prune-index', { toolCalls: 'nope' })
			.index(record('a', 'bash', 'o'), { toolCallId: 'b', toolName: 'bash' } as never)
			.custom('context-prune-dedup-alias', { newToolCallId: 5 })
			.custom('context-prune-chain', { blockId: 'b1' })
			.custom('context-prune-frontier', null)
			.custom('context-prune-stats', 'x');
		s.entries.push({ type: 'custom_message', customType: 'context-prune-summary', content: 'x', display: true, details: { toolCallRefs: 'bad' }, id: 'z', parentId: null, timestamp: '' });
		const lines = new Map(s.entries.map((e, i) => [e, i + 2]));
		const state = runSteps(buildCondenseStateSteps(s.branch, LATEST, { lineOf: (e) => lines.get(e) }));
		assert.equal(state.records.size, 1);
		assert.deepEqual(state.diagnostics.map((d) => d.line), [5, 6, 7, 8, 9, 10, 11]);
		assert.ok(state.diagnostics.every((d) => d.severity === 'warning' && d.message.includes('skipped')));
		assert.equal(state.frontier, undefined);
	});

	it('reads the oldest summary shape (a bare toolCallIds list) as refs named by the ids themselves', () => {
		const s = new BranchBuilder().messages(user(1));
		s.entries.push({ type: 'custom_message', customType: 'context-prune-summary', content: 'old', display: true, details: { toolCallIds: ['q'] }, id: 'z', parentId: null, timestamp: '' });
		const state = runSteps(buildCondenseStateSteps(s.branch, R200));
		assert.deepEqual(state.summaries[0]?.refs.map((r) => [r.shortId, r.key]), [['q', 'q']]);
		assert.equal(state.refKeys.size, 0, 'a ref named by its own key maps no tN');
	});
});
