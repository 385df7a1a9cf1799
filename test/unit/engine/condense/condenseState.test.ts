import assert from 'node:assert/strict';
import { join } from 'node:path';
import { buildCondenseState } from '../../../../src/engine/condense/state/buildCondenseState';
import { coverageOf } from '../../../../src/engine/condense/state/condenseState';
import { assistant, call, chain, record, result, SessionBuilder, user } from './builders';
import { deepFreeze, loadSession, REFERENCE_DIR } from './piReference';

describe('buildCondenseState', () => {
	it('rebuilds refs, aliases, chains, frontier and stats from the basic reference session', () => {
		const { branch } = loadSession(join(REFERENCE_DIR, 'basic', 'session.jsonl'));
		const state = buildCondenseState(deepFreeze(branch));
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
		assert.equal(alias?.original?.shortRef, 't4');
		// The chain without a fused summary concatenates its covering summary.
		assert.match(state.chains[1]?.bodyText ?? '', /^- edit src\/app\.js: OK/);
	});

	it('keys every record by its result occurrence', () => {
		const s = new SessionBuilder().messages(user(100), assistant(110, call('c1', 'bash')), result('c1', 'bash', 120, 'out'))
			.index(record('c1', 'bash', 'out'));
		const state = buildCondenseState(s.branch);
		assert.deepEqual([...state.records.keys()], ['c1@120']);
	});

	it('keeps a reused tool-call id in a later turn apart from the indexed one', () => {
		const s = new SessionBuilder()
			.messages(user(100), assistant(110, call('bash_23', 'bash')), result('bash_23', 'bash', 120, 'FIRST'), assistant(130, { type: 'text', text: 'done' }))
			.summary('summary', [['t1', 'bash_23']]).index(record('bash_23', 'bash', 'FIRST'))
			.messages(user(200), assistant(210, call('bash_23', 'bash')), result('bash_23', 'bash', 220, 'SECOND'));
		const state = buildCondenseState(s.branch);
		const messages = s.context;
		const first = messages[2];
		const second = messages[messages.length - 1];
		assert.ok(first?.role === 'toolResult' && second?.role === 'toolResult');
		assert.equal(coverageOf(state, first)?.kind, 'record');
		assert.equal(coverageOf(state, second), undefined);
	});

	it('binds a record to the occurrence of its turn when an id repeats before the index entry', () => {
		const s = new SessionBuilder()
			.messages(user(100), assistant(110, call('x', 'bash')), result('x', 'bash', 120, 'A'))
			.messages(assistant(130, call('x', 'bash')), result('x', 'bash', 140, 'B'))
			.index(record('x', 'bash', 'A', { turnIndex: 0 }), record('x', 'bash', 'B', { turnIndex: 1 }));
		const state = buildCondenseState(s.branch);
		assert.equal(state.records.get('x@120')?.record.resultText, 'A');
		assert.equal(state.records.get('x@140')?.record.resultText, 'B');
	});

	it('binds a spilled record to the result whose timestamp it carries', () => {
		const s = new SessionBuilder()
			.messages(user(100), assistant(110, call('x', 'bash')), result('x', 'bash', 120, 'small'))
			.messages(assistant(130, call('x', 'bash')), result('x', 'bash', 140, 'huge'))
			.index(record('x', 'bash', '', { turnIndex: 7, timestamp: 140, spillPath: '/tmp/x.txt' }));
		const state = buildCondenseState(s.branch);
		assert.ok(state.records.has('x@140'));
		assert.equal(state.records.has('x@120'), false);
	});

	it('continues ref and block numbering from the maxima, gaps included', () => {
		const s = new SessionBuilder().messages(user(1), assistant(2, call('a', 'bash')), result('a', 'bash', 3, 'o'))
			.summary('s', [['t2', 'a'], ['t9', 'zz']]).index(record('a', 'bash', 'o'))
			.chain(chain('b4', 1, 2)).chain(chain('b2', 50, 60));
		const state = buildCondenseState(s.branch);
		assert.equal(state.nextRefNumber, 10);
		assert.equal(state.nextBlockNumber, 5);
		assert.deepEqual(state.chains.map((c) => c.entry.blockId), ['b4', 'b2']);
	});

	it('lets the last frontier, stats and same-start chain win', () => {
		const frontier = (id: string) => ({ lastAttemptedToolCallId: id, lastAttemptedToolName: 'bash', lastAttemptedTurnIndex: 1, lastAttemptedTimestamp: 1, attemptedBatchCount: 1, attemptedToolCallCount: 1, rawCharCount: 1, summaryCharCount: 1, outcome: 'summarized' });
		const s = new SessionBuilder()
			.custom('context-prune-frontier', frontier('a')).custom('context-prune-frontier', frontier('b'))
			.custom('context-prune-stats', { callCount: 1 }).custom('context-prune-stats', { callCount: 4, totalCost: 0.5 })
			.chain(chain('b1', 10, 20)).chain(chain('b2', 10, 30));
		const state = buildCondenseState(s.branch);
		assert.equal(state.frontier?.lastAttemptedToolCallId, 'b');
		assert.deepEqual(state.stats, { totalInputTokens: 0, totalOutputTokens: 0, totalCost: 0.5, callCount: 4, chainsCompressed: 0, rangesSummarized: 0 });
		assert.deepEqual(state.chains.map((c) => c.entry.blockId), ['b2']);
		assert.equal(state.nextBlockNumber, 3);
	});

	it('skips malformed entries with a diagnostic carrying the line, and never throws', () => {
		const s = new SessionBuilder().messages(user(1), assistant(2, call('a', 'bash')), result('a', 'bash', 3, 'o'))
			.custom('context-prune-index', { toolCalls: 'nope' })
			.index(record('a', 'bash', 'o'), { toolCallId: 'b', toolName: 'bash' } as never)
			.custom('context-prune-dedup-alias', { newToolCallId: 5 })
			.custom('context-prune-chain', { blockId: 'b1' })
			.custom('context-prune-frontier', null)
			.custom('context-prune-stats', 'x');
		s.entries.push({ type: 'custom_message', customType: 'context-prune-summary', content: 'x', display: true, details: { toolCallRefs: 'bad' }, id: 'z', parentId: null, timestamp: '' });
		const lines = new Map(s.entries.map((e, i) => [e, i + 2]));
		const state = buildCondenseState(s.branch, { lineOf: (e) => lines.get(e) });
		assert.equal(state.records.size, 1);
		assert.deepEqual(state.diagnostics.map((d) => d.line), [5, 6, 7, 8, 9, 10, 11]);
		assert.ok(state.diagnostics.every((d) => d.severity === 'warning' && d.message.includes('skipped')));
		assert.equal(state.frontier, undefined);
	});

	it('matches a record written before its result by the bare id, with a diagnostic', () => {
		const s = new SessionBuilder().messages(user(1), assistant(2, call('early', 'bash'))).index(record('early', 'bash', 'o'))
			.messages(result('early', 'bash', 3, 'o'));
		const state = buildCondenseState(s.branch);
		const last = s.context[s.context.length - 1];
		assert.ok(last?.role === 'toolResult');
		assert.equal(coverageOf(state, last)?.kind, 'record');
		assert.match(state.diagnostics[0]?.message ?? '', /no tool result for early precedes its index entry; kept under its bare id/);
	});

	it('keeps an alias whose original is unknown, with a diagnostic', () => {
		const s = new SessionBuilder().messages(user(1), assistant(2, call('dup', 'read')), result('dup', 'read', 3, 'o')).alias('dup', 'ghost');
		const state = buildCondenseState(s.branch);
		assert.equal(state.aliases.get('dup@3')?.original, undefined);
		assert.equal(state.diagnostics.length, 1);
	});
});
