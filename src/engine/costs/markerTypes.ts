/**
 * What the timeline marks between requests, and how to find the markers between two requests. Every
 * marker says where it sits: `beforeRequest` is the index of the first request after it (the request
 * count when none followed), so a chart draws it between two points and a table lists it before that
 * row. Pure.
 */
import type { CacheLifetime } from './cacheLifetimes';

interface MarkerBase {
	/** Epoch ms. */
	readonly at: number;
	/** The entry that shows it (the first of a flush's entries, the request after a gap). */
	readonly entryId: string;
	readonly beforeRequest: number;
}

/** What one flush of pi-condense wrote (or an eager spill at the end of a turn). */
export interface PruneMarker extends MarkerBase {
	readonly kind: 'prune';
	/** `context-prune-summary` messages. */
	readonly summaries: number;
	/** Compressed chains (`context-prune-chain`). */
	readonly chains: number;
	/** Records written to a blob file (spills, eager or backfilled). */
	readonly spills: number;
	/** Tool calls indexed (summarized, spilled or backfilled). */
	readonly records: number;
	/** Duplicates pointed at an earlier record. */
	readonly aliases: number;
	/** 2.7.0+: what started the flush (`budget`, `delta`, `message-end`, `manual`, `rearmed`). */
	readonly trigger: string | undefined;
	/** Every entry of this flush, in file order. */
	readonly entryIds: readonly string[];
	/** USD the summarizer spent in it (the rise of `context-prune-stats` totalCost); 0 when unknown. */
	readonly summarizerCost: number;
}

export interface CompactionMarker extends MarkerBase {
	readonly kind: 'compaction';
	readonly tokensBefore: number;
	readonly fromHook: boolean;
}

export interface ModelChangeMarker extends MarkerBase {
	readonly kind: 'model-change';
	/** `provider/model`. */
	readonly from: string;
	readonly to: string;
}

/** The leaf moved (`/tree`, a branch summary): later entries continue from an earlier one. */
export interface BranchSwitchMarker extends MarkerBase {
	readonly kind: 'branch-switch';
	/** The entry the new branch continues from (null: a new root). */
	readonly fromEntryId: string | null;
}

/**
 * Pi took the session up again. Pi writes no entry for it; the file shows it only where something
 * was written on loading: pi-condense's rearm after reload (2.7.0+), or Pi restating the model or
 * thinking level already in force.
 */
export interface ResumeMarker extends MarkerBase {
	readonly kind: 'resume';
	readonly evidence: 'rearmed' | 'restated-settings';
}

/** A pause longer than the provider's cache lifetime before this request. */
export interface IdleGapMarker extends MarkerBase {
	readonly kind: 'idle-gap';
	readonly gapMs: number;
	readonly lifetime: CacheLifetime;
	/** `expired`: longer than the surest figure; `may-have-expired`: between the likely and the sure one. */
	readonly certainty: 'expired' | 'may-have-expired';
}

export type TimelineMarker = PruneMarker | CompactionMarker | ModelChangeMarker | BranchSwitchMarker | ResumeMarker | IdleGapMarker;
export type MarkerKind = TimelineMarker['kind'];

/**
 * The markers after request `after` up to and including those just before request `upTo`
 * (`after < beforeRequest <= upTo`): what happened between two requests. Markers are in file order,
 * so their `beforeRequest` never decreases: found by binary search.
 */
export function markersBetween(markers: readonly TimelineMarker[], after: number, upTo: number): readonly TimelineMarker[] {
	let low = 0;
	let high = markers.length;
	while (low < high) {
		const middle = (low + high) >>> 1;
		if ((markers[middle] as TimelineMarker).beforeRequest <= after) {
			low = middle + 1;
		} else {
			high = middle;
		}
	}
	let end = low;
	while (end < markers.length && (markers[end] as TimelineMarker).beforeRequest <= upTo) {
		end++;
	}
	return markers.slice(low, end);
}
