import assert from 'node:assert/strict';
import { batchPrompt, rangePrompt, rewriteLabels, serializeBatch } from '../../../../src/engine/flush';
import type { PendingCall } from '../../../../src/engine/condense';
import { replaceLabels } from '../../../../src/engine/flush/prompt/labelRewrite';
import { describeLinearTime } from '../../../support/linearTimeSuite';
import { Random } from '../../../support/random';

const call = (toolCallId: string, toolName: string, args: Record<string, unknown>, resultText: string, isError = false): PendingCall => ({
	toolCallId, toolName, args, resultText, isError, resultTimestamp: 1, key: `${toolCallId}@1`,
});

describe('flush prompts', () => {
	it('serializes a batch as pi-condense does, with a label per block', () => {
		const calls = [call('a', 'bash', { command: 'ls' }, 'x\ny'), call('b', 'read', { path: 'p' }, 'boom', true)];
		assert.equal(serializeBatch('Looking around.', calls), [
			'Assistant said: Looking around.',
			'',
			'[[1:bash]] Tool: bash({\n  "command": "ls"\n})',
			'Result (OK): x\ny',
			'---',
			'[[2:read]] Tool: read({\n  "path": "p"\n})',
			'Result (ERROR): boom',
		].join('\n'));
		assert.equal(serializeBatch('', [calls[0] as PendingCall]), '[[1:bash]] Tool: bash({\n  "command": "ls"\n})\nResult (OK): x\ny');
	});

	it('caps each result at 2000 characters with the truncation note', () => {
		const text = serializeBatch('', [call('a', 'bash', {}, 'z'.repeat(2500))]);
		assert.ok(text.endsWith(`Result (OK): ${'z'.repeat(2000)} ...[500 chars truncated]`));
		assert.ok(!serializeBatch('', [call('a', 'bash', {}, 'z'.repeat(2000))]).includes('truncated'));
	});

	it('wraps the batch in <tool-call-batch> after the instructions, as one user message', () => {
		const { prompt, input } = batchPrompt({ assistantText: '', toolCalls: [call('a', 'bash', { command: 'ls' }, 'ok')] });
		assert.match(prompt, /^You are condensing a batch of tool calls[^]*exactly as written\.[^]*\n\n<tool-call-batch>\n\[\[1:bash\]\] Tool: bash\(/);
		assert.ok(prompt.endsWith('Result (OK): ok\n</tool-call-batch>'));
		assert.deepEqual(input, { kind: 'batch', assistantText: '', calls: [{ label: '[[1:bash]]', toolName: 'bash', args: { command: 'ls' }, resultText: 'ok', isError: false }] });
	});

	it('wraps the summaries to fuse in <sub-task-summaries>, separated by blank lines', () => {
		const { prompt } = rangePrompt(['one', 'two']);
		assert.match(prompt, /^Below are the step-by-step summaries[^]*`t12` or `b3`[^]*\n\n<sub-task-summaries>\none\n\ntwo\n<\/sub-task-summaries>$/);
	});
});

describe('label rewriting', () => {
	const names = ['read', 'Bash'];
	const refs = ['t6', 't7'];
	const cases: [string, string][] = [
		['- [[1:read]] read a file', '- `t6` read a file'],
		['- [[2:bash]] ran it', '- `t7` ran it'],
		['- [[2:BASH]] case does not matter', '- `t7` case does not matter'],
		['- [[3:read]] out of range is stripped', '- out of range is stripped'],
		['- [[0:read]] zero is out of range', '- zero is out of range'],
		['- [[1:bash]] the wrong name is stripped', '- the wrong name is stripped'],
		['- [[1:read]][[2:bash]] two in a row', '- `t6``t7` two in a row'],
		['at the end [[2:bash]]', 'at the end `t7`'],
		['no labels here', 'no labels here'],
		['```\n[[1:read]] inside a fence\n```\n- [[1:read]] after it', '```\n[[1:read]] inside a fence\n```\n- `t6` after it'],
		['~~~ts\n[[9:x]]\n~~~', '~~~ts\n[[9:x]]\n~~~'],
		['[[1:read]\n[not a label]]', '[[1:read]\n[not a label]]'],
	];
	for (const [input, output] of cases) {
		it(JSON.stringify(input), () => assert.equal(rewriteLabels(input, names, refs), output));
	}
});

describe('label rewriting against the regular expression it replaces (seeded, 20,000 lines)', () => {
	const oldLabel = /\[\[(\d+):([^\]\n]*)\]\] ?/g;
	const parts = ['[[', ']]', '[', ']', ':', '1', '2', '12', 'read', 'bash', ' ', '  ', '\n', 'x', '`', '[[1:read]]', '[[2:bash]] ', '[[0:x]]'];

	it('replaces the same tokens with the same captures', () => {
		const random = new Random(2024);
		for (let i = 0; i < 20_000; i++) {
			const line = Array.from({ length: random.int(0, 14) }, () => random.pick(parts)).join('');
			const show = (position: string, name: string, space: boolean): string => `<${position}|${name}|${space ? 's' : ''}>`;
			const expected = line.replace(oldLabel, (label: string, position: string, name: string) => show(position, name, label.endsWith(' ')));
			assert.equal(replaceLabels(line, (label) => show(label.position, label.name, label.space)), expected, JSON.stringify(line));
		}
	});
});

describeLinearTime('label rewriting in linear time on hostile replies', 'labels');
