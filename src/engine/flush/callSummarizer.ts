/**
 * Runs the summarizer calls of a flush through the `Summarizer` port: in parallel (at most
 * `concurrency` at once), or one at a time with per-batch progress when interactive. Pure apart
 * from the port.
 *
 * Failure rules (pi-condense's): results are used in batch order up to the first failed call; so
 * when call i fails, calls after i are cancelled (their results would be thrown away) and calls
 * before i run to the end. An abort of the caller's signal cancels everything.
 */
import { errorMessage } from '../../base/errorMessage';
import { SummarizerError, type SummarizeInput, type SummarizeResult, type Summarizer } from '../ports';
import type { ProgressSink } from './flushProgress';

export interface SummaryJob {
	/**
	 * The call's prompt and input, built when the call starts: together a flush's prompts hold every
	 * raw output of its batches (25 MB on a large backlog), which built up front all lived until the
	 * last call and made long collector pauses.
	 */
	readonly request: () => { readonly prompt: string; readonly input: SummarizeInput };
	/** Position among all batches of the flush (for progress rows). */
	readonly progressIndex: number;
}

/**
 * A call's answer as the flush keeps it until every call is done: the text and the three figures the
 * stats add up. The whole result (model, usage, cost objects) for each of 36,000 calls outlived the
 * young generation and lengthened the collector's pauses while the calls ran.
 */
export interface KeptAnswer {
	readonly text: string;
	readonly inputTokens: number;
	readonly outputTokens: number;
	readonly cost: number;
}

export type JobOutcome =
	| { readonly kind: 'ok'; readonly answer: KeptAnswer }
	| { readonly kind: 'failed'; readonly error: SummarizerError }
	| { readonly kind: 'not-run' };

export interface RunJobsOptions {
	readonly summarizer: Summarizer;
	readonly sequential: boolean;
	readonly concurrency: number;
	readonly progressTotal: number;
	readonly signal?: AbortSignal;
	readonly progress: ProgressSink;
	/**
	 * Awaited between two calls: lets the caller's thread run other work when calls answer at once
	 * (a summarizer that never waits would otherwise run every call in one go).
	 */
	readonly pause?: () => Promise<void>;
}

export interface JobsResult {
	readonly outcomes: readonly JobOutcome[];
	/** True when the caller's signal aborted the run (then nothing may be written). */
	readonly aborted: boolean;
}

const NOT_RUN: JobOutcome = { kind: 'not-run' };

export async function runSummaryJobs(jobs: readonly SummaryJob[], options: RunJobsOptions): Promise<JobsResult> {
	const outcomes: JobOutcome[] = jobs.map(() => NOT_RUN);
	// Only the calls running have a controller: a backlog of 36,000 calls made up front was tens of
	// megabytes that all outlived the young generation, and made long collector pauses.
	const running = new Map<number, AbortController>();
	const onAbort = (): void => running.forEach((controller) => controller.abort());
	options.signal?.addEventListener('abort', onAbort, { once: true });
	let firstFailure = Number.POSITIVE_INFINITY;
	let next = 0;
	const runOne = async (i: number): Promise<void> => {
		const job = jobs[i] as SummaryJob;
		const { progress, progressTotal: total } = options;
		const controller = new AbortController();
		running.set(i, controller);
		progress({ type: 'batch-start', index: job.progressIndex, total });
		try {
			const { prompt, input } = job.request();
			const result = await options.summarizer.summarize({
				prompt,
				input,
				signal: controller.signal,
				onTextProgress: (receivedChars) => progress({ type: 'batch-text', index: job.progressIndex, total, receivedChars }),
			});
			outcomes[i] = { kind: 'ok', answer: keptAnswer(result) };
			progress({ type: 'batch-done', index: job.progressIndex, total, summaryChars: result.text.length });
		} catch (error) {
			const failure = error instanceof SummarizerError ? error : new SummarizerError('error', errorMessage(error));
			outcomes[i] = { kind: 'failed', error: failure };
			const cancelled = controller.signal.aborted;
			progress({ type: 'batch-skipped', index: job.progressIndex, total, reason: cancelled ? 'cancelled' : 'failed' });
			if (!options.signal?.aborted && !cancelled && i < firstFailure) {
				firstFailure = i;
				running.forEach((other, index) => {
					if (index > i) {
						other.abort();
					}
				});
			}
		} finally {
			running.delete(i);
		}
	};
	const worker = async (): Promise<void> => {
		while (next < jobs.length && next <= firstFailure && !options.signal?.aborted) {
			await runOne(next++);
			await options.pause?.();
		}
	};
	try {
		const lanes = options.sequential ? 1 : Math.max(1, Math.min(options.concurrency, jobs.length));
		await Promise.all(Array.from({ length: lanes }, worker));
	} finally {
		options.signal?.removeEventListener('abort', onAbort);
	}
	return { outcomes, aborted: options.signal?.aborted === true };
}

function keptAnswer({ text, usage }: SummarizeResult): KeptAnswer {
	return { text, inputTokens: usage.input, outputTokens: usage.output, cost: usage.cost.total };
}
