import assert from 'node:assert/strict';
import { stripOldThinking } from '../../../../src/engine/condense/phases/thinkingStrip';
import type { AgentMessage, AssistantMessage } from '../../../../src/engine/session/types';
import { assistant, call, result, text, thinking, user } from './builders';
import { deepFreeze } from './piReference';

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
});
