/**
 * Entry point of `dist/pi-ai-worker.js`: the thread that loads pi-ai for the extension (see
 * `piAiWorker.ts`). Loading pi-ai compiles several megabytes of code, which held the extension
 * host for ~0.4 s; here it holds only this thread. Which pi-ai (the installed Pi's, or the bundled one)
 * follows the policy each question carries (`piAiLoader.ts`). It answers model lookups and listings, and runs
 * each flush's default summarizer exactly as the flush would in its own thread
 * (`createDefaultSummarizer`), sending back progress, log lines, results and failures.
 */
import { parentPort } from 'node:worker_threads';
import { errorMessage } from '../../../base/errorMessage';
import { SummarizerError, type Logger } from '../../../engine/ports';
import { inProcessSummarizers, type DefaultSummarizer } from '../defaultSummarizer';
import { planSummarizer } from '../summarizerPlan';
import type { PiAiLoader } from '../library/modelLibrary';
import { lookUpModel } from '../modelPricing';
import { listUsableModels } from '../models';
import { createPiAiLoader, type InstalledPiAiPolicy } from '../piAiLoader';
import type { AnswerOf, FromWorker, LogLevel, ToWorker } from './protocol';

/** One loader per policy the host asked under (trusted or not, its workspace folders), each reported once loaded. */
const loaders = new Map<string, PiAiLoader>();
function loaderFor(policy: InstalledPiAiPolicy): PiAiLoader {
	const key = JSON.stringify(policy);
	let loader = loaders.get(key);
	if (!loader) {
		const load = createPiAiLoader({ distDir: __dirname, installed: policy });
		let reported = false;
		loader = async () => {
			const library = await load();
			if (!reported) {
				reported = true;
				send({ type: 'library', origin: library.origin });
			}
			return library;
		};
		loaders.set(key, loader);
	}
	return loader;
}

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
			reply(message.id, () => lookUpModel(loaderFor(message.policy), message.agentDir, message.provider, message.modelId));
			return;
		case 'models':
			reply(message.id, async () => listUsableModels(await loaderFor(message.policy)(), message.agentDir));
			return;
		case 'plan':
			reply(message.id, () => planSummarizer({
				loadPiAi: loaderFor(message.policy), agentDir: message.agentDir, config: { summarizerModel: message.summarizerModel }, sessionModel: message.sessionModel,
			}));
			return;
		case 'summarize': {
			const { id, handle } = message;
			let summarizer = handles.get(handle);
			if (!summarizer) {
				summarizer = inProcessSummarizers(loaderFor(message.policy))({ ...message.spec, logger: loggerFor(handle) });
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
