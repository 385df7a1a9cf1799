/**
 * How running work ends early: a newer request superseded it (`LatestWins`), its caller's signal
 * was aborted, or the scope that owns it closed. Expected, never reported: whoever stopped the work
 * knows why.
 */
export class WorkStopped extends Error {
	constructor(why = 'superseded by a newer request') {
		super(why);
		this.name = 'WorkStopped';
	}
}

export function isWorkStopped(error: unknown): error is WorkStopped {
	return error instanceof WorkStopped;
}

/** The error to end work with once `signal` is aborted: its reason when that says why, else a plain stop. */
export function stoppedBy(signal: AbortSignal): WorkStopped {
	const reason: unknown = signal.reason;
	return new WorkStopped(reason instanceof Error ? reason.message : 'stopped');
}
