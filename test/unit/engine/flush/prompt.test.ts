import assert from 'node:assert/strict';
import { batchPrompt, rangePrompt, rewriteLabels, serializeBatch } from '../../../../src/engine/flush';
import type { PendingCall } from '../../../../src/engine/condense';
import type { SummarizeInput } from '../../../../src/engine/ports';
import { describeLinearTime } from '../../../support/linearTimeSuite';
import { Random } from '../../../support/random';

const call = (toolCallId: string, toolName: string, args: Record<string, unknown>, resultText: string, isError = false): PendingCall => ({
	toolCallId, toolName, args, resultText, isError, resultTimestamp: 1, key: `${toolCallId}@1`,
});

describe('flush prompts', () => {
	it('serializes a batch as pi-condense 2.1.0+ does, with a label per block', () => {
		const calls = [call('a', 'bash', { command: 'ls' }, 'x\ny'), call('b', 'read', { path: 'p' }, 'boom', true)];
		assert.equal(serializeBatch('Looking around.', calls, true), [
			'Assistant said: Looking around.',
			'',
			'[[1:bash]] Tool: bash({\n  "command": "ls"\n})',
			'Result (OK): x\ny',
			'---',
			'[[2:read]] Tool: read({\n  "path": "p"\n})',
			'Result (ERROR): boom',
		].join('\n'));
		assert.equal(serializeBatch('', [calls[0] as PendingCall], false), 'Tool: bash({\n  "command": "ls"\n})\nResult (OK): x\ny', 'no label before 2.1.0');
		assert.equal(serializeBatch('', [calls[0] as PendingCall], true), '[[1:bash]] Tool: bash({\n  "command": "ls"\n})\nResult (OK): x\ny');
	});

	it('caps each result at 2000 characters with the truncation note', () => {
		const text = serializeBatch('', [call('a', 'bash', {}, 'z'.repeat(2500))], true);
		assert.ok(text.endsWith(`Result (OK): ${'z'.repeat(2000)} ...[500 chars truncated]`));
		assert.ok(!serializeBatch('', [call('a', 'bash', {}, 'z'.repeat(2000))], true).includes('truncated'));
	});

	it('wraps the batch in <tool-call-batch> after the instructions, as one user message', () => {
		const { prompt, input } = batchPrompt({ assistantText: '', toolCalls: [call('a', 'bash', { command: 'ls' }, 'ok')] }, '2.1.0');
		assert.match(prompt, /^You are condensing a batch of tool calls[^]*label such as \[\[1:read\]\][^]*\n\n<tool-call-batch>\n\[\[1:bash\]\] Tool: bash\(/);
		assert.ok(prompt.endsWith('Result (OK): ok\n</tool-call-batch>'));
		assert.deepEqual(input, { kind: 'batch', assistantText: '', calls: [{ label: '[[1:bash]]', toolName: 'bash', args: { command: 'ls' }, resultText: 'ok', isError: false }] });
	});

	it('wraps the summaries to fuse in <sub-task-summaries>, separated by blank lines', () => {
		const { prompt } = rangePrompt(['one', 'two']);
		assert.match(prompt, /^Below are the step-by-step summaries[^]*`t12` or `b3`[^]*\n\n<sub-task-summaries>\none\n\ntwo\n<\/sub-task-summaries>$/);
	});
});

describe('prompt revisions', () => {
	const batch = { assistantText: '', toolCalls: [call('a', 'bash', { command: 'ls' }, 'ok')] };
	it('2.0.0 asks for bullets only; 2.0.1 adds verbatim identifiers and skipping; 2.1.0 adds the label paragraph', () => {
		const [r200, r201, r210] = (['2.0.0', '2.0.1', '2.1.0'] as const).map((revision) => batchPrompt(batch, revision));
		assert.ok(!r200?.prompt.includes('verbatim') && !r200?.prompt.includes('exactly as they appear'));
		assert.ok(r201?.prompt.includes('exactly as they appear') && !r201.prompt.includes('[[1:read]]'));
		assert.ok(r210?.prompt.includes('exactly as they appear') && r210.prompt.includes('[[1:read]]'));
		assert.ok(r201?.prompt.endsWith('<tool-call-batch>\nTool: bash({\n  "command": "ls"\n})\nResult (OK): ok\n</tool-call-batch>'));
		const labelOf = (input: SummarizeInput | undefined): string | undefined => (input?.kind === 'batch' ? input.calls[0]?.label : 'not a batch');
		assert.equal(labelOf(r200?.input), undefined);
		assert.equal(labelOf(r210?.input), '[[1:bash]]');
	});
});

describe('label rewriting (pi-condense 2.1.0 summary-refs rules)', () => {
	// The examples of the releases spec (§3.3), refs t7/t8 for read/bash.
	const names = ['read', 'bash'];
	const refs = ['t7', 't8'];
	const cases: [string, string][] = [
		['- [[1:read]] Read a.ts', '- `t7` Read a.ts'],
		['[[2:Bash]]', '`t8` '],
		['* [[2:read]] wrong', '* wrong'],
		['  - [[3:read]] oob', '  - oob'],
		['**[[1:read]]** bold', '**** bold'],
		['1. [[1:read]] numbered', '1. numbered'],
		['text [[2:bash]] mid', 'text mid'],
		['- [[1:read]][[2:bash]] two', '- `t7` two'],
		['- [[0:read]] zero is out of range', '- zero is out of range'],
		['no labels here', 'no labels here'],
		['```\n[[1:read]] inside a fence\n```\n- [[1:read]] after it', '```\n[[1:read]] inside a fence\n```\n- `t7` after it'],
		['[[1:read]\n[not a label]]', '[[1:read]\n[not a label]]'],
		['- [[1:]] an empty name is no label', '- [[1:]] an empty name is no label'],
	];
	for (const [input, output] of cases) {
		it(JSON.stringify(input), () => assert.equal(rewriteLabels(input, names, refs), output));
	}
});

describe('label rewriting against the rules as regular expressions (seeded, 20,000 replies)', () => {
	// The two rules of §3.3 as regexes (fine on short lines; the production code avoids their backtracking).
	const anchored = /^(\s*(?:[-*]\s+)?)\[\[(\d+):([^\]\n]+)\]\]\s*/;
	const leaked = /\[\[\d+:[^\]\n]+\]\]\s*/g;
	const names = ['read', 'bash'];
	const refs = ['t1', 't2'];
	const byRegex = (text: string): string => {
		let fenced = false;
		return text.split('\n').map((line) => {
			if (line.trimStart().startsWith('```')) {
				fenced = !fenced;
				return line;
			}
			if (fenced) {
				return line;
			}
			const anchoredDone = line.replace(anchored, (_all: string, prefix: string, position: string, name: string) => {
				const i = Number(position) - 1;
				const ok = i >= 0 && i < refs.length && names[i]?.trim().toLowerCase() === name.trim().toLowerCase();
				return ok ? `${prefix}\`${refs[i] ?? ''}\` ` : prefix;
			});
			return anchoredDone.replace(leaked, '');
		}).join('\n');
	};
	const parts = ['[[', ']]', '[', ']', ':', '1', '2', '12', 'read', 'Bash', ' ', '  ', '\t', '\n', 'x', '-', '*', '`', '```', '[[1:read]]', '[[2:bash]] ', '[[0:x]]', '- [[1:read]] '];

	it('gives the same text', () => {
		const random = new Random(2024);
		for (let i = 0; i < 20_000; i++) {
			const text = Array.from({ length: random.int(0, 14) }, () => random.pick(parts)).join('');
			assert.equal(rewriteLabels(text, names, refs), byRegex(text), JSON.stringify(text));
		}
	});
});

describeLinearTime('label rewriting in linear time on hostile replies', 'labels');
