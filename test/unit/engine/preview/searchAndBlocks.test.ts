import assert from 'node:assert/strict';
import { bounded, UNBOUNDED } from '../../../../src/base/boundedText';
import { messageBlocks, searchMessagesSteps } from '../../../../src/engine/preview';
import type { AgentMessage } from '../../../../src/engine/session/types';
import { assistant, call, result, text, thinking, user } from '../condense/builders';
import { runSteps } from '../../../../src/engine/steps';

describe('message blocks', () => {
	it('cuts texts without splitting a surrogate pair', () => {
		assert.deepEqual(bounded('ab😀cd', 3), { text: 'ab', total: 6 });
		assert.deepEqual(bounded('abc', 3), { text: 'abc', total: 3 });
	});

	it('gives thinking, tool calls with pretty arguments, and purged arguments their size', () => {
		const purged = { type: 'toolCall' as const, id: 'x', name: 'edit', arguments: { _purged: '<purged-errored-args size="812"/>' } };
		const blocks = messageBlocks(assistant(1, thinking('hmm'), text('hi'), call('c', 'read', { path: 'a' }), purged), UNBOUNDED);
		assert.deepEqual(blocks.map((b) => b.kind), ['thinking', 'text', 'toolCall', 'toolCall']);
		assert.equal(blocks[2]?.kind === 'toolCall' ? blocks[2].text.text : '', '{\n  "path": "a"\n}');
		assert.equal(blocks[3]?.kind === 'toolCall' ? blocks[3].purgedSize : 0, 812);
	});

	it('shows images as placeholders and results with their tool and error flag', () => {
		const message: AgentMessage = { role: 'toolResult', toolCallId: 'c', toolName: 'screenshot', isError: true, timestamp: 1, content: [{ type: 'text', text: 'see' }, { type: 'image', mimeType: 'image/png', data: 'AAAA' }] };
		assert.deepEqual(messageBlocks(message, UNBOUNDED), [
			{ kind: 'toolResult', toolName: 'screenshot', isError: true, text: { text: 'see', total: 3 } },
			{ kind: 'image', mimeType: 'image/png', bytes: 3 },
		]);
	});
});

describe('search over full texts', () => {
	const messages = [user(1, 'Find the Needle'), assistant(2, text('no')), result('c', 'bash', 3, `${'x'.repeat(5000)}needle and NEEDLE`)];

	it('finds case-insensitive matches, also past the part a row shows', () => {
		const { hits, capped } = runSteps(searchMessagesSteps(messages, 'needle'));
		assert.deepEqual(hits, [{ row: 0, block: 0, start: 9 }, { row: 2, block: 0, start: 5000 }, { row: 2, block: 0, start: 5011 }]);
		assert.equal(capped, false);
	});

	it('treats the query literally and stops at the limit', () => {
		assert.equal(runSteps(searchMessagesSteps([user(1, 'a.b axb (x)')], 'a.b')).hits.length, 1);
		assert.equal(runSteps(searchMessagesSteps([user(1, 'a.b axb (x)')], '(x)')).hits.length, 1);
		assert.deepEqual(runSteps(searchMessagesSteps(messages, 'needle', { limit: 2 })), { hits: [{ row: 0, block: 0, start: 9 }, { row: 2, block: 0, start: 5000 }], capped: true });
		assert.equal(runSteps(searchMessagesSteps(messages, '')).hits.length, 0);
	});
});
