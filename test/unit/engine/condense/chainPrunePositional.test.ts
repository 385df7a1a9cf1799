import assert from 'node:assert/strict';
import { chainPrunePositionalSteps } from '../../../../src/engine/condense/phases/chainPrunePositional';
import { buildCondenseStateSteps } from '../../../../src/engine/condense/state/buildCondenseState';
import type { ChainCompressionEntry } from '../../../../src/engine/condense/types';
import type { AgentMessage, AssistantMessage, UserMessage } from '../../../../src/engine/session/types';
import { assistant, call, chain, record, result, BranchBuilder, text, thinking, user } from './builders';
import { deepFreeze } from './piReference';
import { LATEST } from '../../../support/releases';
import { runSteps } from '../../../../src/engine/steps';

const strip = { stripFinalAssistantThinking: true };

/** A closed chain: user@100, two tool turns (c1: read, c2: todoread), closing assistant@150, then user@200. */
function closedChain(): BranchBuilder {
	return new BranchBuilder()
		.messages(user(100, 'do it'), assistant(110, thinking('plan'), call('c1', 'read', { path: 'a.ts' })), result('c1', 'read', 111, 'AAA'))
		.summary('summary one', [['t1', 'c1']]).index(record('c1', 'read', 'AAA'))
		.messages(assistant(120, call('c2', 'todoread')), result('c2', 'todoread', 121, 'TODO: x\nTODO: y'))
		.summary('summary two', [['t2', 'c2']]).index(record('c2', 'todoread', 'TODO'))
		.messages(assistant(150, thinking('wrap'), text('all done')), user(200, 'next'));
}

function withChain(builder: BranchBuilder, entry: ChainCompressionEntry): { messages: readonly AgentMessage[]; out: readonly AgentMessage[]; reports: string[] } {
	builder.chain(entry);
	const reports: string[] = [];
	const messages = deepFreeze(builder.context);
	const out = runSteps(chainPrunePositionalSteps(messages, runSteps(buildCondenseStateSteps(builder.branch, LATEST)), strip, (d) => reports.push(`${d.kind}: ${d.detail}`)));
	return { messages, out, reports };
}

const b1 = (extra: Partial<ChainCompressionEntry> = {}) => chain('b1', 100, 150, { droppedToolCallIds: ['c1', 'c2'], toolRefs: ['t1', 't2'], compressedAt: 999, ...extra });
const textOf = (message: AgentMessage | undefined) => ((message as UserMessage).content[0] as { text: string }).text;

describe('chainPrunePositional (phase 3, 2.6.0+)', () => {
	it('returns the same array when there are no chains', () => {
		const s = closedChain();
		const messages = deepFreeze(s.context);
		assert.equal(runSteps(chainPrunePositionalSteps(messages, runSteps(buildCondenseStateSteps(s.branch, LATEST)), strip)), messages);
	});

	it('drops the middle, inserts the synthetic right after the start, strips the closing thinking', () => {
		const { messages, out } = withChain(closedChain(), b1({ rangeSummaryText: 'fused' }));
		assert.deepEqual(out.map((m) => m.role), ['user', 'user', 'assistant', 'user']);
		assert.equal(out[0], messages[0]);
		assert.deepEqual(out[1], { role: 'user', content: [{ type: 'text', text: '<compressed-chain id="b1" tools="t1,t2">\nfused\n</compressed-chain>' }], timestamp: 999 });
		assert.deepEqual((out[2] as AssistantMessage).content, [{ type: 'text', text: 'all done' }]);
		assert.equal(out[3], messages[messages.length - 1]);
	});

	it('keeps the closing thinking when stripFinalAssistantThinking is off', () => {
		const s = closedChain().chain(b1());
		const out = runSteps(chainPrunePositionalSteps(s.context, runSteps(buildCondenseStateSteps(s.branch, LATEST)), { stripFinalAssistantThinking: false }));
		assert.equal((out[2] as AssistantMessage).content.length, 2);
	});

	it('falls back to the distinct covering summaries joined by a blank line', () => {
		const { out } = withChain(closedChain(), b1());
		assert.equal(textOf(out[1]), '<compressed-chain id="b1" tools="t1,t2">\nsummary one\n\nsummary two\n</compressed-chain>');
	});

	it('relocates protected outputs into the block, in order, instead of dropping them', () => {
		const { out } = withChain(closedChain(), b1({ rangeSummaryText: 'fused', protectedToolCallIds: ['c2'] }));
		assert.equal(textOf(out[1]), '<compressed-chain id="b1" tools="t1,t2">\nfused\n\n<protected-output tool="todoread">\nTODO: x\nTODO: y\n</protected-output>\n</compressed-chain>');
	});

	it('relocates a path-protected output recorded at compression time', () => {
		const s = new BranchBuilder()
			.messages(user(100), assistant(110, call('s1', 'read', { path: 'skills/x/SKILL.md' }), call('c1', 'bash')), result('s1', 'read', 111, 'SKILL BODY'), result('c1', 'bash', 112, 'out'))
			.messages(assistant(150, text('done')));
		const { out } = withChain(s, chain('b1', 100, 150, { protectedToolCallIds: ['s1'], rangeSummaryText: 'r' }));
		assert.match(textOf(out[1]), /<protected-output tool="read">\nSKILL BODY\n<\/protected-output>/);
	});

	it('drops nothing when the start message is missing (fail-closed)', () => {
		const { messages, out, reports } = withChain(closedChain(), b1({ startUserTimestamp: 99 }));
		assert.equal(out, messages);
		assert.deepEqual(reports, ['unresolved-range: blockId=b1 start=99 final=150']);
	});

	it('drops nothing when the closing assistant is missing, ambiguous, or before the start', () => {
		for (const final of [151, null]) {
			const { messages, out } = withChain(closedChain(), b1({ finalAssistantTimestamp: final }));
			assert.equal(out, messages);
		}
		const twice = closedChain().messages(assistant(150, text('same timestamp again')));
		assert.equal(withChain(twice, b1()).out.length, twice.context.length);
		const backwards = closedChain();
		assert.equal(withChain(backwards, chain('b1', 200, 150)).out.length, backwards.context.length);
	});

	it('is idempotent: a second pass returns its input', () => {
		const s = closedChain().chain(b1({ rangeSummaryText: 'fused', protectedToolCallIds: ['c2'] }));
		const state = runSteps(buildCondenseStateSteps(s.branch, LATEST));
		const once = runSteps(chainPrunePositionalSteps(deepFreeze(s.context), state, strip));
		assert.equal(runSteps(chainPrunePositionalSteps(once, state, strip)), once);
	});

	it('hides summaries outside the range that cover a dropped call', () => {
		// Agent-message batching writes the summary after the closing assistant.
		const s = new BranchBuilder()
			.messages(user(100), assistant(110, call('c1', 'bash')), result('c1', 'bash', 111, 'out'), assistant(150, text('done')))
			.summary('late summary', [['t1', 'c1']]).index(record('c1', 'bash', 'out'))
			.summary('unrelated', [['t2', 'zz']]);
		const { out } = withChain(s, chain('b1', 100, 150, { rangeSummaryText: 'r' }));
		assert.deepEqual(out.map((m) => (m.role === 'custom' ? m.content : m.role)), ['user', 'user', 'assistant', 'unrelated']);
	});

	it('keeps a live turn that reuses a dropped call id, with its occurrence-keyed summary', () => {
		const s = closedChain()
			.messages(assistant(210, call('c1', 'read')), result('c1', 'read', 211, 'LIVE'))
			.summary('live summary', [['t3', 'c1', 211]]).index(record('c1', 'read', 'LIVE', { turnIndex: 3, resultTimestamp: 211 }));
		const { out } = withChain(s, b1({ rangeSummaryText: 'r' }));
		assert.deepEqual(out.slice(-3).map((m) => m.role), ['assistant', 'toolResult', 'custom']);
	});

	it('drops a live summary whose legacy refs (no timestamp) name a dropped bare id', () => {
		const s = closedChain().messages(assistant(210, call('c1', 'read')), result('c1', 'read', 211, 'LIVE')).summary('live summary', [['t3', 'c1']]);
		const { out } = withChain(s, b1({ rangeSummaryText: 'r' }));
		assert.deepEqual(out.slice(-2).map((m) => m.role), ['assistant', 'toolResult']);
	});

	it('drops every tool result inside the range, also one whose call lies outside it', () => {
		const s = new BranchBuilder()
			.messages(assistant(90, call('early', 'bash')), user(100), result('early', 'bash', 101, 'late result'))
			.messages(assistant(110, call('c1', 'bash')), result('c1', 'bash', 111, 'x'), assistant(150, text('done')));
		const { out } = withChain(s, chain('b1', 100, 150, { rangeSummaryText: 'r', droppedToolCallIds: ['early', 'c1'] }));
		assert.deepEqual(out.map((m) => m.role), ['assistant', 'user', 'user', 'assistant']);
	});

	it('reports a range whose ids differ from the recorded ones (and still drops the range)', () => {
		const { out, reports } = withChain(closedChain(), b1({ rangeSummaryText: 'r', droppedToolCallIds: ['c1@111', 'gone'] }));
		assert.equal(out.length, 4);
		assert.deepEqual(reports, ['range-id-mismatch: blockId=b1 recorded=2 actual=2']);
		const { reports: fewer } = withChain(closedChain(), b1({ rangeSummaryText: 'r', droppedToolCallIds: ['c1'] }));
		assert.deepEqual(fewer, ['range-id-mismatch: blockId=b1 recorded=1 actual=2']);
	});

	it('resolves {bN} one level deep, leaving self-references and unknown blocks literal', () => {
		const s = closedChain()
			.messages(assistant(210, call('c3', 'bash')), result('c3', 'bash', 211, 'o'), assistant(250, text('second done')))
			.chain(b1({ rangeSummaryText: 'first {b2}' }))
			.chain(chain('b2', 200, 250, { rangeSummaryText: 'after {b1}, not {b2} nor {b9}', compressedAt: 1999 }));
		const out = runSteps(chainPrunePositionalSteps(deepFreeze(s.context), runSteps(buildCondenseStateSteps(s.branch, LATEST)), strip));
		const synthetic = out.filter((m) => m.role === 'user').map(textOf).filter((t) => t.startsWith('<compressed'));
		assert.deepEqual(synthetic, [
			'<compressed-chain id="b1" tools="t1,t2">\nfirst after {b1}, not {b2} nor {b9}\n</compressed-chain>',
			'<compressed-chain id="b2" tools="">\nafter first {b2}, not {b2} nor {b9}\n</compressed-chain>',
		]);
	});

	it('skips a chain nested inside another one, keeping user messages inside the outer range', () => {
		const s = new BranchBuilder()
			.messages(user(100), assistant(110, call('c1', 'bash')), result('c1', 'bash', 111, 'x'))
			.messages(user(130, 'steer'), assistant(140, call('c2', 'bash')), result('c2', 'bash', 141, 'y'), assistant(150, text('done')))
			.chain(chain('b1', 100, 150, { rangeSummaryText: 'outer', droppedToolCallIds: ['c1', 'c2'] }))
			.chain(chain('b2', 130, 150, { rangeSummaryText: 'inner' }));
		const reports: string[] = [];
		const out = runSteps(chainPrunePositionalSteps(deepFreeze(s.context), runSteps(buildCondenseStateSteps(s.branch, LATEST)), strip, (d) => reports.push(d.kind === 'orphan-sweep' ? '' : `${d.dedupKey}: ${d.detail}`)));
		assert.deepEqual(out.map((m) => m.role), ['user', 'user', 'user', 'assistant']);
		assert.equal(textOf(out[2]), 'steer');
		assert.deepEqual(reports, ['overlap:b2: blockId=b2 skipped: range nests inside blockId=b1']);
	});
});
