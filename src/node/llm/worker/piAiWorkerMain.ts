/**
 * Entry point of `dist/pi-ai-worker.js`: the thread that loads pi-ai for the extension (see
 * `piAiWorker.ts`). Loading pi-ai compiles several megabytes of code, which held the extension
 * host for ~0.4 s; here it holds only this thread. It answers model lookups and listings, and runs
 * each flush's default summarizer exactly as the flush would in its own thread
 * (`createDefaultSummarizer`), sending back progress, log lines, results and failures.
 */
import { parentPort } from 'node:worker_threads';
import { errorMessage } from '../../../shared/errorMessage';
import { SummarizerError, type Logger } from '../../../engine/ports';
import { inProcessSummarizers, type DefaultSummarizer } from '../../flush/defaultSummarizer';
import { lookUpModel } from '../modelPricing';
import { listUsableModels } from '../models';
import { createPiAiLoader } from '../piAiLoader';
import type { AnswerOf, FromWorker, LogLevel, ToWorker } from './protocol';

const loadPiAi = createPiAiLoader(__dirname);
const summarizers = inProcessSummarizers(loadPiAi);
/** Each flush's summarizer, by the host's handle, until the host releases it. */
const handles = new Map<number, DefaultSummarizer>();
/** The abort of each running summarizer call, by question id. */
const calls = new Map<number, AbortController>();

const send = (message: FromWorker): void => parentPort?.postMessage(message);

function reply(id: number, work: () => Promise<AnswerOf[keyof AnswerOf]>): void {
	work().then(
		(value) => send({ type: 'answer', id, value }),
		(error: unknown) => send(error instanceof SummarizerError
			? { type: 'failure', id, message: error.message, kind: error.kind }
			: { type: 'failure', id, message: errorMessage(error) }),
	);
}

function loggerFor(handle: number): Logger {
	const log = (level: LogLevel) => (message: string | Error): void => send({ type: 'log', handle, level, message: errorMessage(message) });
	return { trace: log('trace'), debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
}

parentPort?.on('message', (message: ToWorker) => {
	switch (message.type) {
		case 'facts':
			reply(message.id, () => lookUpModel(loadPiAi, message.agentDir, message.provider, message.modelId));
			return;
		case 'models':
			reply(message.id, async () => listUsableModels(loadPiAi(), message.agentDir));
			return;
		case 'summarize': {
			const { id, handle } = message;
			let summarizer = handles.get(handle);
			if (!summarizer) {
				summarizer = summarizers({ ...message.spec, logger: loggerFor(handle) });
				handles.set(handle, summarizer);
			}
			const controller = new AbortController();
			if (message.aborted) {
				controller.abort();
			}
			calls.set(id, controller);
			const chosen = summarizer;
			reply(id, async () => {
				try {
					const result = await chosen.summarize({
						prompt: message.prompt,
						input: message.input,
						signal: controller.signal,
						onTextProgress: message.wantsProgress ? (receivedChars) => send({ type: 'progress', id, receivedChars }) : undefined,
					});
					return { result, offlineReason: chosen.offlineReason() };
				} finally {
					calls.delete(id);
				}
			});
			return;
		}
		case 'abort':
			calls.get(message.id)?.abort();
			return;
		case 'release':
			handles.get(message.handle)?.release();
			handles.delete(message.handle);
			return;
	}
});
