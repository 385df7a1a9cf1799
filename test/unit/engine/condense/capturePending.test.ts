import assert from 'node:assert/strict';
import { join } from 'node:path';
import { capturePendingBatchesSteps } from '../../../../src/engine/condense/pending/capturePending';
import { buildCondenseStateSteps } from '../../../../src/engine/condense/state/buildCondenseState';
import { assistant, call, record, result, BranchBuilder, text, user } from './builders';
import { loadSession, REFERENCE_DIR, referenceConfig } from './piReference';
import { defaults, LATEST, R200 } from '../../../support/releases';
import { runSteps } from '../../../../src/engine/steps';

const DEFAULT_CONFIG = defaults(R200);

const frontier = (id: string, turn: number) => ({
	lastAttemptedToolCallId: id, lastAttemptedToolName: 'bash', lastAttemptedTurnIndex: turn, lastAttemptedTimestamp: 1,
	attemptedBatchCount: 1, attemptedToolCallCount: 1, rawCharCount: 1, summaryCharCount: 1, outcome: 'skipped-trivial',
});

/** Two user turns with three tool-using assistant turns and a call still running. */
function session(): BranchBuilder {
	return new BranchBuilder()
		.messages(user(1), assistant(10, text('looking'), call('a', 'bash', { command: 'ls' }), call('b', 'read', { path: 'x/skills/s/SKILL.md' })))
		.messages(result('a', 'bash', 11, 'aaaa'), result('b', 'read', 12, 'skill'))
		.messages(assistant(20, call('c', 'todoread')), result('c', 'todoread', 21, 'todo'), assistant(30, text('done')))
		.messages(user(40), assistant(50, call('d', 'bash'), call('e', 'bash')), result('d', 'bash', 51, 'dd'))
		.messages(assistant(60, call('f', 'bash')), result('f', 'bash', 61, 'ffffff'));
}

describe('capturePendingBatches', () => {
	it('captures one batch per tool-using turn, skipping protected calls and calls without results', () => {
		const s = session();
		const batches = runSteps(capturePendingBatchesSteps(s.branch, runSteps(buildCondenseStateSteps(s.branch, R200)), { ...DEFAULT_CONFIG, protectedTools: ['todoread'] }));
		assert.deepEqual(batches.map((b) => [b.turnIndex, b.userTurnGroup, b.toolCalls.map((c) => c.toolCallId), b.rawChars]), [
			[0, 1, ['a'], 4],
			[3, 2, ['d'], 2],
			[4, 2, ['f'], 6],
		]);
		assert.equal(batches[0]?.assistantText, 'looking');
		assert.equal(batches[0]?.timestamp, Date.parse(s.entries[1]?.timestamp ?? ''));
		assert.deepEqual(batches[0]?.toolCalls[0], { toolCallId: 'a', toolName: 'bash', args: { command: 'ls' }, resultText: 'aaaa', isError: false, resultTimestamp: 11, key: 'a' }, 'keyed by the bare id up to 2.5.0');
		const latest = runSteps(capturePendingBatchesSteps(s.branch, runSteps(buildCondenseStateSteps(s.branch, LATEST)), { ...DEFAULT_CONFIG, protectedTools: ['todoread'] }));
		assert.equal(latest[0]?.toolCalls[0]?.key, 'a@11', 'by occurrence from 2.6.0');
	});

	it('merges the turns of one user turn in agent-message mode', () => {
		const s = session();
		const batches = runSteps(capturePendingBatchesSteps(s.branch, runSteps(buildCondenseStateSteps(s.branch, R200)), { ...DEFAULT_CONFIG, batchingMode: 'agent-message' }));
		assert.deepEqual(batches.map((b) => [b.turnIndex, b.toolCalls.map((c) => c.toolCallId), b.rawChars]), [
			[1, ['a', 'c'], 8],
			[4, ['d', 'f'], 8],
		]);
	});

	it('leaves out indexed and aliased calls and trims to the frontier', () => {
		const s = session().index(record('a', 'bash', 'aaaa')).alias('f', 'a').custom('context-prune-frontier', frontier('d', 3));
		const batches = runSteps(capturePendingBatchesSteps(s.branch, runSteps(buildCondenseStateSteps(s.branch, R200)), DEFAULT_CONFIG));
		assert.deepEqual(batches, []);
		const partial = session().custom('context-prune-frontier', frontier('zz', 1));
		assert.deepEqual(runSteps(capturePendingBatchesSteps(partial.branch, runSteps(buildCondenseStateSteps(partial.branch, R200)), DEFAULT_CONFIG)).map((b) => b.turnIndex), [1, 3, 4]);
	});

	it('tells a reused id\'s results apart as the release keys them', () => {
		const reused = (resultTimestamp?: number): BranchBuilder => new BranchBuilder()
			.messages(user(1), assistant(2, call('x', 'bash')), result('x', 'bash', 3, 'A')).index(record('x', 'bash', 'A', resultTimestamp === undefined ? {} : { resultTimestamp }))
			.messages(assistant(4, call('x', 'bash')), result('x', 'bash', 5, 'B'));
		const keys = (s: BranchBuilder, rules: typeof LATEST): string[][] => runSteps(capturePendingBatchesSteps(s.branch, runSteps(buildCondenseStateSteps(s.branch, rules)), DEFAULT_CONFIG)).map((b) => b.toolCalls.map((c) => c.key));
		// Up to 2.5.0 the bare id is summarized: both results count as done.
		assert.deepEqual(keys(reused(), R200), []);
		// From 2.6.0 only the exact occurrence is; a record written before 2.6.0 covers neither.
		assert.deepEqual(keys(reused(3), LATEST), [['x@5']]);
		assert.deepEqual(keys(reused(), LATEST), [['x@3'], ['x@5']]);
	});

	it('finds nothing pending in the basic reference session', () => {
		const { branch } = loadSession(join(REFERENCE_DIR, 'basic', 'session.jsonl'));
		assert.deepEqual(runSteps(capturePendingBatchesSteps(branch, runSteps(buildCondenseStateSteps(branch, R200)), referenceConfig('basic', R200))), []);
	});
});
