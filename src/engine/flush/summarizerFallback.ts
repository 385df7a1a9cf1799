/**
 * pi-condense 2.2.0's summarizer fallback: while the configured summarizer model fails with a
 * transient error (a thrown error, an error stop, a timeout), calls go to the session's model, and
 * the configured model is probed again at most every 10 minutes. Only when both models exist and
 * differ; otherwise one attempt, as 2.0.0. 2.2.0 also moved the next probe on every failed
 * steady-state call (so a failing session model starved the probe); 2.2.1 leaves it. Pure: the
 * clock and the notices are ports. State lives as long as the wrapper (the release resets it per
 * session load; one flush here).
 *
 * @example
 * const summarizer = withSummarizerFallback({ primary, fallback, rule: release.summarizerFallback, now: Date.now, notify });
 */
import type { SummarizerFallbackRule } from '../release/releases';
import { SummarizerError, type SummarizeRequest, type SummarizeResult, type Summarizer } from '../ports';

export const FALLBACK_COOLDOWN_MS = 600_000;

export interface FallbackOptions {
	readonly primary: Summarizer;
	/** The session's model; undefined when it is the same model as `primary`, or unknown. */
	readonly fallback: Summarizer | undefined;
	readonly rule: SummarizerFallbackRule;
	readonly now: () => number;
	readonly notify: (level: 'info' | 'warning', message: string) => void;
}

/** Thrown errors, error stops and timeouts; never auth (credentials, model), unusable (empty, length) or aborts. */
function isTransient(error: unknown): boolean {
	return !(error instanceof SummarizerError) || error.kind === 'error' || error.kind === 'timeout';
}

export function withSummarizerFallback(options: FallbackOptions): Summarizer {
	const { primary, fallback, rule, now, notify } = options;
	if (rule === 'none' || !fallback) {
		return primary;
	}
	const sessionModel = fallback;
	let inFallback = false;
	let lastProbeAt = 0;
	let warningPending = false;
	const failing = `pi-condense: summarizer model ${primary.label} failing, using session model ${sessionModel.label} until it recovers`;

	async function onFallback(request: SummarizeRequest): Promise<SummarizeResult> {
		try {
			const result = await sessionModel.summarize(request);
			if (warningPending) {
				warningPending = false;
				notify('warning', failing);
			}
			return result;
		} catch (error) {
			if (rule === 'starving' && isTransient(error)) {
				lastProbeAt = now();
			}
			throw error;
		}
	}

	return {
		label: primary.label,
		async summarize(request: SummarizeRequest): Promise<SummarizeResult> {
			// Chosen before any await, so parallel calls of one flush do not all probe.
			const probing = inFallback && now() - lastProbeAt >= FALLBACK_COOLDOWN_MS;
			if (inFallback && !probing) {
				return onFallback(request);
			}
			if (probing) {
				lastProbeAt = now();
			}
			try {
				const result = await primary.summarize(request);
				if (probing) {
					inFallback = false;
					notify('info', `pi-condense: summarizer model ${primary.label} recovered`);
				}
				return result;
			} catch (error) {
				if (!isTransient(error) || request.signal?.aborted) {
					throw error;
				}
				try {
					const result = await sessionModel.summarize(request);
					lastProbeAt = now();
					if (!inFallback || warningPending) {
						inFallback = true;
						warningPending = false;
						notify('warning', failing);
					}
					return result;
				} catch (retryError) {
					lastProbeAt = now();
					if (!inFallback) {
						inFallback = true;
						warningPending = true;
					}
					throw retryError;
				}
			}
		},
	};
}
