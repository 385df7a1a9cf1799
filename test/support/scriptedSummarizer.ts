/**
 * A small real `Summarizer` for engine tests: answers each request with a function of its prompt
 * (text, or an Error to fail with), records every request (unless `record` is false: the bench's
 * flush of 36,000 batches would keep every prompt alive, which the extension's summarizer does
 * not), and reports usage from the lengths.
 * The end-to-end tests use the real pi-ai client against the fake HTTP server instead.
 */
import { SummarizerError, type SummarizeRequest, type SummarizeResult, type Summarizer } from '../../src/engine/ports';

export type ScriptedReply = string | SummarizerError | ((request: SummarizeRequest) => string | SummarizerError);

export interface ScriptedSummarizer extends Summarizer {
	readonly requests: SummarizeRequest[];
}

export function scriptedSummarizer(reply: ScriptedReply, delayMs = 0, record = true): ScriptedSummarizer {
	const requests: SummarizeRequest[] = [];
	return {
		label: 'scripted/test-model',
		requests,
		async summarize(request) {
			if (record) {
				requests.push(request);
			}
			if (delayMs > 0) {
				await new Promise((resolve) => setTimeout(resolve, delayMs));
			}
			if (request.signal?.aborted) {
				throw new SummarizerError('aborted', 'aborted');
			}
			const answer = typeof reply === 'function' ? reply(request) : reply;
			if (answer instanceof SummarizerError) {
				throw answer;
			}
			request.onTextProgress?.(answer.length);
			return result(answer, request.prompt.length);
		},
	};
}

function result(text: string, promptChars: number): SummarizeResult {
	const input = Math.ceil(promptChars / 4);
	const output = Math.ceil(text.length / 4);
	return {
		text,
		model: 'scripted/test-model',
		usage: { input, output, cacheRead: 0, cacheWrite: 0, totalTokens: input + output, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
	};
}
