import assert from 'node:assert/strict';
import { recoveryGraceKeysSteps } from '../../../../src/engine/condense/phases/recoveryGrace';
import { renderContextSteps } from '../../../../src/engine/condense/render/renderContext';
import { buildCondenseStateSteps } from '../../../../src/engine/condense/state/buildCondenseState';
import type { ReleaseRules } from '../../../../src/engine/release/releases';
import type { AgentMessage, ToolResultMessage } from '../../../../src/engine/session/types';
import { defaults } from '../../../support/releases';
import { assistant, call, record, result, BranchBuilder, text, user } from './builders';
import { runSteps } from '../../../../src/engine/steps';
import { releaseRules } from '../../../../src/engine/release/releases';

/** A recovery at ts 120 (summarized, as pi-condense re-summarizes recovered output), then `laterUsers` user turns. */
function recoverySession(laterUsers: number, occurrenceKeyed: boolean): BranchBuilder {
	const extra = occurrenceKeyed ? { resultTimestamp: 120 } : {};
	const s = new BranchBuilder()
		.messages(user(100), assistant(110, call('ctq_0', 'context_tree_query', { toolCallIds: ['t1'] })), result('ctq_0', 'context_tree_query', 120, 'RECOVERED'), assistant(130, text('ok')))
		.summary('s', [occurrenceKeyed ? ['t9', 'ctq_0', 120] : ['t9', 'ctq_0']]).index(record('ctq_0', 'context_tree_query', 'RECOVERED', extra));
	for (let i = 0; i < laterUsers; i++) {
		s.messages(user(200 + i * 10), assistant(205 + i * 10, text('reply')));
	}
	return s;
}

function recoveredText(messages: readonly AgentMessage[]): string {
	const found = messages.find((m): m is ToolResultMessage => m.role === 'toolResult' && m.timestamp === 120);
	const first = found?.content[0];
	return first?.type === 'text' ? first.text : '';
}

function render(s: BranchBuilder, rules: ReleaseRules, graceTurns?: number): readonly AgentMessage[] {
	const config = { ...defaults(rules), enabled: true, ...(graceTurns === undefined ? {} : { recoveryGraceTurns: graceTurns }) };
	return runSteps(renderContextSteps(s.context, runSteps(buildCondenseStateSteps(s.branch, rules)), config, rules));
}

describe('recovery grace window (2.3.0+)', () => {
	it('keeps a recovery verbatim while at most K user messages follow it, and stubs it at K + 1', () => {
		for (const [laterUsers, verbatim] of [[0, true], [3, true], [4, false]] as const) {
			const out = render(recoverySession(laterUsers, true), releaseRules('2.9.1'));
			assert.equal(recoveredText(out) === 'RECOVERED', verbatim, `${laterUsers} later user messages`);
		}
	});

	it('does not exist before 2.3.0, and is off at 0', () => {
		assert.match(recoveredText(render(recoverySession(0, false), releaseRules('2.2.1'))), /^\[Summarized in pruner summary, ref `t9`/);
		assert.match(recoveredText(render(recoverySession(0, false), releaseRules('2.3.0'), 0)), /^\[Summarized/);
		assert.equal(recoveredText(render(recoverySession(0, false), releaseRules('2.3.0'))), 'RECOVERED');
	});

	it('counts only real user messages, on the array before any phase', () => {
		const messages: AgentMessage[] = [
			user(1), result('q', 'context_tree_query', 2, 'r'), { role: 'custom', customType: 'x', content: 'c', display: false, timestamp: 3 }, user(4), user(5),
		];
		assert.deepEqual([...runSteps(recoveryGraceKeysSteps(messages, 2, 'occurrence'))], ['q@2']);
		assert.deepEqual([...runSteps(recoveryGraceKeysSteps(messages, 1, 'occurrence'))], []);
		assert.deepEqual([...runSteps(recoveryGraceKeysSteps(messages, 2, 'bare'))], ['q']);
		assert.deepEqual([...runSteps(recoveryGraceKeysSteps(messages, Number.NaN, 'bare'))], []);
	});

	it('up to 2.5.0 keys the window by bare id: another tool\'s result sharing the id stays verbatim too', () => {
		const s = new BranchBuilder()
			.messages(user(100), assistant(105, call('x_0', 'bash')), result('x_0', 'bash', 110, 'BASH OUTPUT'))
			.summary('s', [['t1', 'x_0']]).index(record('x_0', 'bash', 'BASH OUTPUT'))
			.messages(assistant(115, call('x_0', 'context_tree_query')), result('x_0', 'context_tree_query', 120, 'RECOVERED'));
		const bash = (out: readonly AgentMessage[]): string => {
			const found = out.find((m): m is ToolResultMessage => m.role === 'toolResult' && m.timestamp === 110);
			const first = found?.content[0];
			return first?.type === 'text' ? first.text : '';
		};
		assert.equal(bash(render(s, releaseRules('2.5.0'))), 'BASH OUTPUT');
		// From 2.6.0 the grace is keyed by occurrence: the bash result is not the recovery.
		const keyed = new BranchBuilder()
			.messages(user(100), assistant(105, call('x_0', 'bash')), result('x_0', 'bash', 110, 'BASH OUTPUT'))
			.summary('s', [['t1', 'x_0', 110]]).index(record('x_0', 'bash', 'BASH OUTPUT', { resultTimestamp: 110 }))
			.messages(assistant(115, call('x_0', 'context_tree_query')), result('x_0', 'context_tree_query', 120, 'RECOVERED'));
		assert.match(bash(render(keyed, releaseRules('2.6.0'))), /^\[Summarized in pruner summary, ref `t1`/);
	});
});
