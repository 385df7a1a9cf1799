/**
 * The host's side of a flush's default summarizer when pi-ai runs in the worker: the same
 * `DefaultSummarizer` the flush would build in its own thread, each call forwarded to the worker.
 * The worker keeps the summarizer itself (the pi-ai-or-offline choice and the fallback's state) for
 * the whole flush under one handle; progress, log lines, the result and the failure (its kind and
 * message, rebuilt as a `SummarizerError` by `PiAiWorker`) come back. An abort of the caller's
 * signal aborts that call in the worker.
 */
import { errorMessage } from '../../../base/errorMessage';
import { nullLogger, type Logger, type SummarizeRequest, type SummarizeResult } from '../../../engine/ports';
import type { DefaultSummarizer, SummarizerChoice } from '../defaultSummarizer';
import { summarizerLabel } from '../piAiSummarizer';
import type { AnswerOf, Question } from './protocol';

export type SummarizeQuestion = Omit<Extract<Question, { type: 'summarize' }>, 'id' | 'policy'>;

/** What the proxy needs of `PiAiWorker`. */
export interface SummarizerChannel {
	newHandle(): number;
	summarize(question: SummarizeQuestion, logger: Logger, signal: AbortSignal | undefined, onProgress: ((receivedChars: number) => void) | undefined): Promise<AnswerOf['summarize']>;
	release(handle: number): void;
}

export function createWorkerSummarizer(channel: SummarizerChannel, choice: SummarizerChoice): DefaultSummarizer {
	const { logger = nullLogger, ...spec } = choice;
	const handle = channel.newHandle();
	let offlineReason: string | undefined;
	return {
		label: summarizerLabel(spec.config.summarizerModel, spec.sessionModel),
		offlineReason: () => offlineReason,
		release: () => channel.release(handle),
		async summarize(request: SummarizeRequest): Promise<SummarizeResult> {
			const { onTextProgress } = request;
			// As the summarizer in this thread does: a failing progress callback is logged, never fatal.
			const onProgress = onTextProgress && ((receivedChars: number): void => {
				try {
					onTextProgress(receivedChars);
				} catch (error) {
					logger.warn(`summarizer: progress callback failed: ${errorMessage(error)}`);
				}
			});
			const answer = await channel.summarize({
				type: 'summarize', handle, spec, prompt: request.prompt, input: request.input,
				aborted: request.signal?.aborted === true, wantsProgress: onProgress !== undefined,
			}, logger, request.signal, onProgress);
			offlineReason = answer.offlineReason;
			return answer.result;
		},
	};
}
