import assert from 'node:assert/strict';
import { renderContextSteps } from '../../../../src/engine/condense/render/renderContext';
import { stripOldThinking, stripThinkingBefore } from '../../../../src/engine/condense/phases/thinkingStrip';
import { buildCondenseStateSteps } from '../../../../src/engine/condense/state/buildCondenseState';
import type { AgentMessage, AssistantMessage } from '../../../../src/engine/session/types';
import { defaults } from '../../../support/releases';
import { assistant, call, result, BranchBuilder, text, thinking, user } from './builders';
import { deepFreeze } from './piReference';
import { runSteps } from '../../../../src/engine/steps';
import { releaseRules } from '../../../../src/engine/release/releases';

function turns(n: number): AgentMessage[] {
	const messages: AgentMessage[] = [user(1)];
	for (let i = 0; i < n; i++) {
		messages.push(assistant(10 + i, thinking(`t${i}`), text(`a${i}`), call(`c${i}`, 'bash')), result(`c${i}`, 'bash', 100 + i, 'o'));
	}
	return deepFreeze(messages);
}

const blockTypes = (messages: readonly AgentMessage[]) => messages.filter((m): m is AssistantMessage => m.role === 'assistant').map((m) => m.content.map((b) => b.type).join('+'));

describe('stripOldThinking (phase 4)', () => {
	it('returns the same array with K or fewer assistant turns', () => {
		const messages = turns(3);
		assert.equal(stripOldThinking(messages, 3), messages);
		assert.equal(stripOldThinking(messages, 16), messages);
	});

	it('keeps thinking on the last K assistants only, text and tool calls kept, order preserved', () => {
		const messages = turns(4);
		const out = stripOldThinking(messages, 2);
		assert.deepEqual(blockTypes(out), ['text+toolCall', 'text+toolCall', 'thinking+text+toolCall', 'thinking+text+toolCall']);
		assert.equal(out.length, messages.length);
		assert.equal(out[out.length - 1], messages[messages.length - 1]);
		assert.deepEqual(blockTypes(messages), Array(4).fill('thinking+text+toolCall'), 'input unchanged');
	});

	it('treats K = 0 (or less) as 1: the newest assistant, awaiting results, keeps its thinking', () => {
		const out = stripOldThinking(turns(3), 0);
		assert.deepEqual(blockTypes(out), ['text+toolCall', 'text+toolCall', 'thinking+text+toolCall']);
		assert.deepEqual(blockTypes(stripOldThinking(turns(3), -5)), blockTypes(out));
	});

	it('removes every thinking block of a message, signatures included', () => {
		const messages = deepFreeze([user(1), assistant(2, thinking('a'), text('x'), thinking('b')), assistant(3, text('y'))]);
		const out = stripOldThinking(messages, 1);
		assert.deepEqual((out[1] as AssistantMessage).content, [{ type: 'text', text: 'x' }]);
	});

	it('is idempotent and returns the same array when old turns have no thinking', () => {
		const once = stripOldThinking(turns(5), 2);
		assert.equal(stripOldThinking(once, 2), once);
	});

	it('2.4.3 strips every assistant below the boundary stored at flush time (strictly below; none without a number)', () => {
		const messages = turns(4);
		assert.deepEqual(blockTypes(stripThinkingBefore(messages, 12)), ['text+toolCall', 'text+toolCall', 'thinking+text+toolCall', 'thinking+text+toolCall']);
		assert.equal(stripThinkingBefore(messages, 10), messages);
	});
});

describe('thinking strip by release', () => {
	/** Four tool turns (assistants at 10…13), a frontier whose boundary is 13. */
	function session(): BranchBuilder {
		return new BranchBuilder().messages(...turns(4)).frontier('c3', { thinkingStripBoundaryTimestamp: 13 });
	}

	const strippedCount = (version: '2.4.2' | '2.4.3' | '2.5.0', keepLastTurns: number): number => {
		const rules = releaseRules(version);
		const s = session();
		const config = { ...defaults(rules), enabled: true, ...(rules.thinkingStrip === 'none' ? {} : { thinkingStrip: { enabled: true, keepLastTurns } }) };
		const out = runSteps(renderContextSteps(s.context, runSteps(buildCondenseStateSteps(s.branch, rules)), config, rules));
		return blockTypes(out).filter((types) => !types.startsWith('thinking')).length;
	};

	it('up to 2.4.2 counts the live assistants, 2.4.3 uses the flush boundary, 2.5.0 never strips', () => {
		assert.equal(strippedCount('2.4.2', 1), 3);
		assert.equal(strippedCount('2.4.3', 1), 3, 'below 13: assistants 10, 11, 12');
		assert.equal(strippedCount('2.4.3', 3), 3, 'the boundary, not the count, decides');
		assert.equal(strippedCount('2.4.2', 3), 1);
		assert.equal(strippedCount('2.5.0', 1), 0);
	});

	it('defaults to stripping all but the last 16 up to 2.4.3 (the release decides, not us)', () => {
		assert.deepEqual(defaults(releaseRules('2.4.3')).thinkingStrip, { enabled: true, keepLastTurns: 16 });
		assert.equal(defaults(releaseRules('2.5.0')).thinkingStrip, undefined);
	});
});
