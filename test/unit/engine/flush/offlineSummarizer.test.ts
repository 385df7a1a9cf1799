import assert from 'node:assert/strict';
import { batchPrompt, OFFLINE_HEADER, offlineSummarizer, rangePrompt } from '../../../../src/engine/flush';
import type { PendingCall } from '../../../../src/engine/condense';

const call = (toolCallId: string, toolName: string, args: Record<string, unknown>, resultText: string, isError = false): PendingCall => ({
	toolCallId, toolName, args, resultText, isError, resultTimestamp: 1, key: toolCallId,
});

describe('offline extractive summarizer', () => {
	it('states tool, key arguments, status with exit code, size and telling lines, labelled as offline', async () => {
		const { prompt, input } = batchPrompt({ assistantText: '', toolCalls: [
			call('a', 'bash', { command: 'npm   test', timeout: 60 }, 'PASS src/a.test.ts\nFAIL src/b.test.ts\n  Error: expected 2, got 3\nnpm ERR! Test failed.\nProcess exited with code 1', true),
			call('b', 'read', { path: 'src/app.ts' }, 'import x from "y";\n\nexport function main() {\n  return 1;\n}\n'),
			call('c', 'bash', { command: 'ls' }, 'README.md\nsrc'),
		] }, '2.1.0');
		const result = await offlineSummarizer.summarize({ prompt, input });
		assert.equal(result.model, 'offline (extractive)');
		assert.equal(result.usage.totalTokens, 0);
		assert.equal(result.text, [
			OFFLINE_HEADER,
			'- [[1:bash]] bash command="npm test": ERROR (exit code 1), 113 chars in 5 lines.',
			'  - "PASS src/a.test.ts"',
			'  - "FAIL src/b.test.ts"',
			'  - "Error: expected 2, got 3"',
			'- [[2:read]] read path="src/app.ts": OK, 59 chars in 5 lines.',
			'  - "export function main() {"',
			'- [[3:bash]] bash command="ls": OK, 13 chars in 2 lines.',
			'  - "README.md"',
			'  - "src"',
		].join('\n'));
		assert.deepEqual(await offlineSummarizer.summarize({ prompt, input }), result, 'deterministic');
	});

	it('does not fuse chains, and honours an abort', async () => {
		await assert.rejects(offlineSummarizer.summarize(rangePrompt(['a', 'b'])), { name: 'SummarizerError', kind: 'model' });
		const controller = new AbortController();
		controller.abort();
		await assert.rejects(offlineSummarizer.summarize({ prompt: 'p', input: { kind: 'batch', assistantText: '', calls: [] }, signal: controller.signal }), { kind: 'aborted' });
	});
});
