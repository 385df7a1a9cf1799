import assert from 'node:assert/strict';
import { chainPruneByIdSteps } from '../../../../src/engine/condense/phases/chainPruneById';
import type { DefectWarning } from '../../../../src/engine/condense/phases/renderReport';
import { renderContextSteps } from '../../../../src/engine/condense/render/renderContext';
import { buildCondenseStateSteps } from '../../../../src/engine/condense/state/buildCondenseState';
import type { AgentMessage, AssistantMessage, UserMessage } from '../../../../src/engine/session/types';
import { defaults, R200 } from '../../../support/releases';
import { assistant, call, chain, record, result, BranchBuilder, text, thinking, user } from './builders';
import { deepFreeze } from './piReference';
import { runSteps } from '../../../../src/engine/steps';
import { releaseRules } from '../../../../src/engine/release/releases';

const strip = { stripFinalAssistantThinking: true };
const textOf = (message: AgentMessage | undefined): string => ((message as UserMessage).content[0] as { text: string }).text;

/** A compressed chain (b1: user@100 … assistant@150, calls bash_0) and a live turn that reuses `bash_0`. */
function reusedIdSession(): BranchBuilder {
	return new BranchBuilder()
		.messages(user(100, 'first'), assistant(110, call('bash_0', 'bash')), result('bash_0', 'bash', 111, 'OLD'), assistant(150, thinking('t'), text('done')))
		.summary('old summary', [['t1', 'bash_0']]).index(record('bash_0', 'bash', 'OLD'))
		.chain(chain('b1', 100, 150, { droppedToolCallIds: ['bash_0'], toolRefs: ['t1'], compressedAt: 999 }))
		.messages(user(200, 'second'), assistant(210, thinking('live'), call('bash_0', 'bash'), call('read_0', 'read')), result('bash_0', 'bash', 211, 'LIVE'), result('read_0', 'read', 212, 'FILE'))
		.messages(assistant(250, text('answer')));
}

function run(s: BranchBuilder): { out: readonly AgentMessage[]; warnings: DefectWarning[] } {
	const warnings: DefectWarning[] = [];
	const out = runSteps(chainPruneByIdSteps(deepFreeze(s.context), runSteps(buildCondenseStateSteps(s.branch, R200)), strip, { release: '2.0.0', report: (w) => warnings.push(w) }));
	return { out, warnings };
}

describe('chainPruneById (phase 3, 2.0.0–2.5.0)', () => {
	it('drops the union of dropped ids anywhere: a live turn reusing a compressed chain\'s id is lost, and a warning says so', () => {
		const { out, warnings } = run(reusedIdSession());
		// The old summary (it names bash_0) goes too; so do the live assistant (it calls bash_0) and the
		// live bash_0 result, while read_0's result stays, orphaned.
		assert.deepEqual(out.map((m) => (m.role === 'user' ? textOf(m).slice(0, 18) : m.role)), [
			'first', '<compressed-chain ', 'assistant', 'second', 'toolResult', 'assistant',
		]);
		assert.equal(out[4]?.role === 'toolResult' && out[4].toolCallId, 'read_0');
		assert.equal(warnings.length, 1);
		assert.equal(warnings[0]?.kind, 'chain-drops-live-turn');
		assert.deepEqual(warnings[0]?.toolCallIds, ['bash_0', 'read_0']);
		assert.equal(warnings[0]?.fixedIn, '2.6.0');
		assert.match(warnings[0]?.message ?? '', /drops 2 live message\(s\).*b1.*2\.6\.0/);
	});

	it('keeps the live turn from 2.6.0 on, and the render warns of the orphan 2.0.0 leaves', () => {
		const s = reusedIdSession();
		const config = { ...defaults(R200), enabled: true, purgeErrors: { enabled: false, cooldownTurns: 2, minArgChars: 500 } };
		const warnings: DefectWarning[] = [];
		const v200 = runSteps(renderContextSteps(s.context, runSteps(buildCondenseStateSteps(s.branch, R200)), config, R200, { warning: (w) => warnings.push(w) }));
		assert.deepEqual(warnings.map((w) => w.kind), ['chain-drops-live-turn', 'orphan-tool-result']);
		assert.match(warnings[1]?.message ?? '', /read_0.*HTTP 400.*2\.6\.0/);
		const v260 = runSteps(renderContextSteps(s.context, runSteps(buildCondenseStateSteps(s.branch, releaseRules('2.6.0'))), { ...config, thinkingStrip: undefined }, releaseRules('2.6.0')));
		assert.equal(v260.length, v200.length + 2);
		assert.ok(v260.some((m) => m.role === 'toolResult' && m.toolCallId === 'bash_0' && m.timestamp === 211));
	});

	it('strips the thinking of every assistant at a final timestamp, and inserts the synthetic after every user at the start', () => {
		const s = new BranchBuilder()
			.messages(user(100, 'a'), assistant(110, call('c1', 'bash')), result('c1', 'bash', 111, 'x'), assistant(150, thinking('t1'), text('one')))
			.messages(user(100, 'same timestamp'), assistant(150, thinking('t2'), text('two')))
			.chain(chain('b1', 100, 150, { droppedToolCallIds: ['c1'], rangeSummaryText: 'r' }));
		const { out } = run(s);
		assert.deepEqual(out.map((m) => m.role), ['user', 'user', 'assistant', 'user', 'user', 'assistant']);
		assert.ok(out.filter((m): m is AssistantMessage => m.role === 'assistant').every((m) => m.content.every((b) => b.type !== 'thinking')));
	});

	it('inserts the synthetic even when the chain\'s closing assistant is gone', () => {
		const s = new BranchBuilder().messages(user(100), assistant(110, call('c1', 'bash')), result('c1', 'bash', 111, 'x'))
			.chain(chain('b1', 100, 150, { droppedToolCallIds: ['c1'], rangeSummaryText: 'r' }));
		assert.deepEqual(run(s).out.map((m) => m.role), ['user', 'user']);
	});

	it('collects protected outputs of its ids from anywhere in the context', () => {
		const s = reusedIdSession();
		s.entries.splice(s.entries.findIndex((e) => e.type === 'custom' && e.customType === 'context-prune-chain'), 1);
		s.chain(chain('b1', 100, 150, { droppedToolCallIds: ['bash_0'], protectedToolCallIds: ['bash_0'], rangeSummaryText: 'r' }));
		const { out } = run(s);
		assert.equal(textOf(out[1]), '<compressed-chain id="b1" tools="">\nr\n\n<protected-output tool="bash">\nOLD\n</protected-output>\n\n<protected-output tool="bash">\nLIVE\n</protected-output>\n</compressed-chain>');
	});

	it('returns the same array when no id, timestamp or start matches', () => {
		const s = new BranchBuilder().messages(user(1), assistant(2, call('a', 'bash')), result('a', 'bash', 3, 'o'))
			.chain(chain('b1', 100, 150, { droppedToolCallIds: ['zz'] }));
		const messages = deepFreeze(s.context);
		assert.equal(runSteps(chainPruneByIdSteps(messages, runSteps(buildCondenseStateSteps(s.branch, R200)), strip)), messages);
	});
});
