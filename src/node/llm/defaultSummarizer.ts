/**
 * The summarizer a flush uses when the caller passes none: pi-ai (the installed Pi's or the bundled
 * `dist/pi-ai.js`, loaded on the first call: `llm/piAiLoader.ts`), or the offline extractive
 * summarizer when `summarizerModel` is `default` and the session's model cannot be used (no model
 * yet, unknown to that pi-ai and models.json, or no credentials). An explicitly configured `provider/id` is never replaced by the
 * offline summarizer: without credentials its calls fail with the provider's name and what to set.
 * The choice is made on the first call, so a flush with nothing to summarize loads nothing.
 *
 * Where pi-ai runs is the caller's: the CLI builds these in its own thread (`inProcessSummarizers`),
 * the extension in its pi-ai worker (`worker/piAiWorker.ts`), which builds them with this module.
 */
import { offlineSummarizer, withSummarizerFallback } from '../../engine/flush';
import type { SummarizerFallbackRule } from '../../engine/release';
import type { ContextPruneConfig } from '../../engine/config';
import { nullLogger, type Logger, type SummarizeRequest, type SummarizeResult, type Summarizer } from '../../engine/ports';
import { describeOrigin, type PiAiLoader } from './library/modelLibrary';
import { formatModelRef, type ModelRef } from './models';
import { createPiAiSummarizer, summarizerLabel } from './piAiSummarizer';
import { planSummarizer } from './summarizerPlan';

/** One flush's summarizer, as plain data (it crosses to the pi-ai worker). */
export interface SummarizerSpec {
	readonly agentDir: string;
	readonly config: ContextPruneConfig;
	readonly sessionModel: ModelRef | undefined;
	/** 2.2.0+: an explicit summarizer model falls back to the session's model while it fails. */
	readonly fallbackRule: SummarizerFallbackRule;
	/** Client-side retries inside the provider SDK; undefined keeps the SDK's default (tests: 0). */
	readonly maxRetries?: number;
}

export interface SummarizerChoice extends SummarizerSpec {
	readonly logger?: Logger;
}

export interface DefaultSummarizerOptions extends SummarizerChoice {
	readonly loadPiAi: PiAiLoader;
}

export interface DefaultSummarizer extends Summarizer {
	/** Why the offline summarizer wrote summaries, once it has; undefined otherwise. */
	offlineReason(): string | undefined;
	/** The flush is done with it (the worker drops its state); no call follows. */
	release(): void;
}

/** Builds each flush's default summarizer; the extension's runs pi-ai in its worker thread. */
export type SummarizerFactory = (choice: SummarizerChoice) => DefaultSummarizer;

/** Summarizers that load pi-ai in this thread (the CLI, tests, the worker itself). */
export function inProcessSummarizers(loadPiAi: PiAiLoader): SummarizerFactory {
	return (choice) => createDefaultSummarizer({ ...choice, loadPiAi });
}

export function createDefaultSummarizer(options: DefaultSummarizerOptions): DefaultSummarizer {
	let chosen: Promise<{ summarizer: Summarizer; offlineReason?: string }> | undefined;
	let offlineReason: string | undefined;
	const choose = async (): Promise<{ summarizer: Summarizer; offlineReason?: string }> => {
		await logLibrary(options);
		const piAi = createPiAiSummarizer({
			loadPiAi: options.loadPiAi, agentDir: options.agentDir, settings: options.config, sessionModel: options.sessionModel, maxRetries: options.maxRetries, logger: options.logger,
		});
		const spec = options.config.summarizerModel.trim();
		if (spec !== '' && spec !== 'default') {
			return { summarizer: withSessionModelFallback(piAi, spec, options) };
		}
		// The same answer the confirmation gave (`summarizerPlan.ts`): what was promised is what runs.
		const plan = await planSummarizer({ loadPiAi: options.loadPiAi, agentDir: options.agentDir, config: options.config, sessionModel: options.sessionModel, logger: options.logger });
		return plan.kind === 'offline' ? { summarizer: offlineSummarizer, offlineReason: plan.reason } : { summarizer: piAi };
	};
	return {
		label: summarizerLabel(options.config.summarizerModel, options.sessionModel),
		offlineReason: () => offlineReason,
		release: () => undefined,
		async summarize(request: SummarizeRequest): Promise<SummarizeResult> {
			chosen ??= choose();
			const choice = await chosen;
			const result = await choice.summarizer.summarize(request);
			offlineReason = choice.offlineReason;
			return result;
		},
	};
}

/** The configured model, falling back to the session's model as the release does (when they differ). */
function withSessionModelFallback(primary: Summarizer, spec: string, options: DefaultSummarizerOptions): Summarizer {
	const session = options.sessionModel;
	const differs = session !== undefined && spec.split(':')[0] !== formatModelRef(session);
	const logger = options.logger ?? nullLogger;
	return withSummarizerFallback({
		primary,
		fallback: differs ? createPiAiSummarizer({
			loadPiAi: options.loadPiAi, agentDir: options.agentDir, settings: { ...options.config, summarizerModel: 'default' }, sessionModel: session, maxRetries: options.maxRetries, logger: options.logger,
		}) : undefined,
		rule: options.fallbackRule,
		now: Date.now,
		notify: (level, message) => (level === 'warning' ? logger.warn(message) : logger.info(message)),
	});
}

/** Says which pi-ai answers this flush's calls (the installed Pi's or the bundled one, and why). */
async function logLibrary(options: DefaultSummarizerOptions): Promise<void> {
	const library = await options.loadPiAi().catch(() => undefined);
	if (library) {
		(options.logger ?? nullLogger).info(`summarizer: models and credentials from ${describeOrigin(library.origin)}`);
	}
}
