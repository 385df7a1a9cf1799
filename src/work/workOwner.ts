/**
 * What the helpers of the running-work layer (and the functions that run long passes for a caller)
 * need of the scope that owns them. `WorkScope` is the one implementation; the helpers take this
 * interface so that none of them depends on the scope's own file.
 */
import type { Steps } from '../engine/steps';
import type { SliceOptions } from './slicer';

/** Hears a failure of background work (never a `WorkStopped`: a stop is expected). */
export type ErrorListener = (error: unknown) => void;

/** A timer of a scope: cleared when the scope closes, or by `cancel`. */
export interface ScopeTimer {
	cancel(): void;
}

/**
 * What a function that runs long passes is handed by its caller: slices under the caller's scope,
 * so a shutdown stops them too. A `WorkScope` is one.
 */
export interface SliceRunner {
	/**
	 * Runs `steps` in slices (`SLICE_MS`) on this thread. Rejects with `WorkStopped` once the scope
	 * closes or `signal` (the caller's own, if any) is aborted: the steps stop at their next pause.
	 */
	sliced<T>(steps: Steps<T>, signal?: AbortSignal, options?: SliceOptions): Promise<T>;
}

export interface WorkOwner extends SliceRunner {
	/** Aborted when the scope closes. */
	readonly signal: AbortSignal;
	/**
	 * Runs `work` with a signal aborted when the scope closes (or `signal` is); closing waits for it
	 * to end. Rejects with `WorkStopped` at once when the scope is already closed.
	 */
	run<T>(work: (signal: AbortSignal) => Promise<T>, signal?: AbortSignal): Promise<T>;
	/** `run`, for work nobody waits for: a failure goes to `onError` (default: the scope's report). */
	start(work: (signal: AbortSignal) => Promise<unknown>, onError?: ErrorListener): void;
	/** Calls `fire` after `ms`, unless cancelled or the scope closed first. */
	timeout(ms: number, fire: () => void): ScopeTimer;
	/** Says a failure of work of this scope (in the log, where the root sends it). */
	report(error: unknown): void;
}
