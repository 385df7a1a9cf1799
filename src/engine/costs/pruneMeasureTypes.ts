/**
 * What measuring a session's prunes takes and gives (`pruneMeasuresSteps`, pruneMeasures.ts; the walk
 * that does it, measureWalk.ts): per conversation request our estimate of the context sent, per epoch
 * the tokens each prune in force took out of it. Types only.
 */
import type { ContextPruneConfig } from '../config/types';
import type { ReleaseRules } from '../release/releases';
import type { SessionModel } from '../session/model';
import type { PruneMarker } from './markerTypes';
import type { SessionTimeline } from './sessionTimeline';

/** One conversation request as our engine sees it. */
export interface ReplyMeasure {
	/** Index in the timeline's requests. */
	readonly request: number;
	/** Our estimate (tokens) of the context sent, every prune in force applied. */
	readonly estimate: number;
	/** Index of its epoch. */
	readonly epoch: number;
}

export interface EpochMeasure {
	/** The first request of the epoch (index in the timeline's requests). */
	readonly request: number;
	/** Prunes in force (indices into `PruneMeasures.prunes`), with the tokens each took out (our estimate: characters / 4). */
	readonly removed: ReadonlyMap<number, number>;
}

export interface MeasureInputs {
	readonly model: SessionModel;
	/** The timeline of `model`'s entries (its requests say which entry recorded them). */
	readonly timeline: SessionTimeline;
	readonly rules: ReleaseRules;
	/** Rendered with pruning on, whatever `enabled` says now: the prunes were written while it was. */
	readonly config: ContextPruneConfig;
}

export interface PruneMeasures {
	/** The timeline's prune markers, in order. */
	readonly prunes: readonly PruneMarker[];
	readonly replies: readonly ReplyMeasure[];
	readonly epochs: readonly EpochMeasure[];
	/** Renders run (windows and whole contexts). */
	readonly renders: number;
}
