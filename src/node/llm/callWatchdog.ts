/**
 * Guards one summarizer call (pi-condense 2.4.0): aborts it when the caller aborts, when nothing has
 * streamed for `idleTimeoutMs`, or when it has run for `maxTimeoutMs`. `failure` rejects at once with
 * the matching SummarizerError, so a provider that ignores the abort cannot hold the caller.
 */
import { SummarizerError } from '../../engine/ports';

export interface CallWatchdog {
	/** Pass to the provider: aborted on any of the three triggers. */
	readonly signal: AbortSignal;
	/** Never resolves; rejects when a trigger fires. */
	readonly failure: Promise<never>;
	/** Call on every streamed event: restarts the idle timer. */
	activity(): void;
	dispose(): void;
}

export interface WatchdogLimits {
	readonly label: string;
	readonly idleTimeoutMs: number;
	readonly maxTimeoutMs: number;
	readonly callerSignal?: AbortSignal;
}

export function startCallWatchdog(limits: WatchdogLimits): CallWatchdog {
	const controller = new AbortController();
	let fail: (error: SummarizerError) => void = () => undefined;
	const failure = new Promise<never>((_resolve, reject) => {
		fail = reject;
	});
	// Raced by the caller; this keeps a late trigger from surfacing as an unhandled rejection.
	failure.catch(() => undefined);
	const trigger = (error: SummarizerError): void => {
		if (!controller.signal.aborted) {
			dispose();
			controller.abort(error);
			fail(error);
		}
	};
	const onCallerAbort = (): void => trigger(new SummarizerError('aborted', `The call to ${limits.label} was cancelled.`));
	// pi-condense 2.4.0's own warnings, word for word (whole seconds, rounded).
	const idleError = (): SummarizerError => new SummarizerError('timeout',
		`pi-condense: summarizer ${limits.label} stalled (no output for ${Math.round(limits.idleTimeoutMs / 1000)}s); summarizer call abandoned`);
	const startIdleTimer = (): NodeJS.Timeout | undefined => armed(limits.idleTimeoutMs, () => trigger(idleError()));
	let idleTimer = startIdleTimer();
	const totalTimer = armed(limits.maxTimeoutMs, () => trigger(new SummarizerError('timeout',
		`pi-condense: summarizer ${limits.label} exceeded ${Math.round(limits.maxTimeoutMs / 1000)}s ceiling; summarizer call abandoned`)));
	function dispose(): void {
		clearTimeout(idleTimer);
		clearTimeout(totalTimer);
		limits.callerSignal?.removeEventListener('abort', onCallerAbort);
	}
	if (limits.callerSignal?.aborted) {
		onCallerAbort();
	} else {
		limits.callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
	}
	return {
		signal: controller.signal,
		failure,
		activity: () => {
			if (!controller.signal.aborted) {
				clearTimeout(idleTimer);
				idleTimer = startIdleTimer();
			}
		},
		dispose,
	};
}

/** A limit that is not a positive finite number means "no limit". */
function armed(ms: number, onExpiry: () => void): NodeJS.Timeout | undefined {
	return ms > 0 && Number.isFinite(ms) ? setTimeout(onExpiry, ms) : undefined;
}

