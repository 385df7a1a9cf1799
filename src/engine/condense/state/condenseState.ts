/**
 * pi-condense's state as one release rebuilds it from the active branch: its tool-call index, dedup
 * aliases, `tN` refs, summaries, compressed chains, and the last frontier and stats. Types only.
 *
 * Keys follow the release (`keying`): up to 2.5.0 everything is keyed by the bare tool-call id, so
 * a later record of a reused id replaces the earlier one; from 2.6.0 by the occurrence key
 * `id@resultTimestamp` (the bare id for records written before 2.6.0).
 */
import type { SessionDiagnostic } from '../../session/types';
import type { ChainCompressionEntry, PruneFrontier, SummarizerStats, ToolCallRecord } from '../types';

export type StateKeying = 'bare' | 'occurrence';

/** One indexed tool call, under the key the release files it. */
export interface RecordOccurrence {
	readonly key: string;
	readonly record: ToolCallRecord;
	/** `resultTimestamp` as written on the record (2.6.0+ writers), else undefined. */
	readonly resultTimestamp: number | undefined;
	/** The `tN` the release registered for `key`; undefined for spilled records and unknown refs. */
	readonly shortRef: string | undefined;
	/** Id of the `context-prune-index` entry. */
	readonly entryId: string;
	/** Written by a 2.9.0+ deterministic chain compression (`backfilled: true`). */
	readonly backfilled: boolean;
}

/** One index record as read, in branch order (a later one under the same key replaces it in `records`). */
export interface IndexedRecord {
	readonly key: string;
	readonly record: ToolCallRecord;
	readonly entryId: string;
	readonly backfilled: boolean;
}

/** A duplicate tool result that pi-condense pointed at an earlier record instead of summarizing it. */
export interface AliasOccurrence {
	/** The duplicate's key. */
	readonly key: string;
	readonly toolCallId: string;
	readonly resultTimestamp: number | undefined;
	readonly originalKey: string;
	readonly originalToolCallId: string;
	/** The record the original key resolves to; undefined when it is not indexed. */
	readonly original: RecordOccurrence | undefined;
	/** The original's `tN`, when it had one when the alias was registered. */
	readonly shortRef: string | undefined;
	readonly entryId: string;
}

export interface SummaryRef {
	readonly shortId: string;
	readonly toolCallId: string;
	readonly resultTimestamp: number | undefined;
	/** The key the release files this ref under. */
	readonly key: string;
}

/** A `context-prune-summary` message on the branch. */
export interface SummaryInfo {
	readonly entryId: string;
	readonly text: string;
	readonly refs: readonly SummaryRef[];
	readonly turnIndex: number | undefined;
	readonly timestamp: number | undefined;
}

export interface ChainInfo {
	readonly entry: ChainCompressionEntry;
	/** `rangeSummaryText`, else the distinct covering summaries joined with a blank line (the release's lookup). */
	readonly bodyText: string;
	/** 1-based line of the chain's entry in the session file, when known. */
	readonly line?: number;
}

export interface CondenseState {
	readonly keying: StateKeying;
	/** The tool-call index: key → record (a later record under the same key wins). */
	readonly records: ReadonlyMap<string, RecordOccurrence>;
	/** Every index record as read, in branch order, including records a later one replaced under the same key. */
	readonly indexedInOrder: readonly IndexedRecord[];
	/** Bare id → every key minted for it, in insertion order. */
	readonly keysByBareId: ReadonlyMap<string, readonly string[]>;
	/** Dedup aliases by the duplicate's key. */
	readonly aliases: ReadonlyMap<string, AliasOccurrence>;
	/** Bare id of a duplicate → its aliases, in registration order. */
	readonly aliasesByBareId: ReadonlyMap<string, readonly AliasOccurrence[]>;
	/** `tN` → the key it names (a later ref with the same `tN` wins). */
	readonly refKeys: ReadonlyMap<string, string>;
	/** Key → its `tN` (aliases carry their original's). */
	readonly shortRefs: ReadonlyMap<string, string>;
	/** `tN` → the record it resolves to. */
	readonly refs: ReadonlyMap<string, RecordOccurrence>;
	readonly summaries: readonly SummaryInfo[];
	/** Compressed chains, one per start timestamp (the last entry wins), oldest start first. */
	readonly chains: readonly ChainInfo[];
	/** Body of block `bN`, for `{bN}` placeholders: the first registered chain with that id. */
	readonly blockBodies: ReadonlyMap<string, string>;
	readonly spilled: readonly RecordOccurrence[];
	/** Number for the next `tN`: the highest registered ref + 1. */
	readonly nextRefNumber: number;
	/** Number for the next `bN`: the highest persisted block + 1. */
	readonly nextBlockNumber: number;
	/** The last frontier, with only the fields the release knows. */
	readonly frontier: PruneFrontier | undefined;
	readonly stats: SummarizerStats | undefined;
	readonly diagnostics: readonly SessionDiagnostic[];
}

export type ResultCoverage =
	| { readonly kind: 'record'; readonly occurrence: RecordOccurrence }
	| { readonly kind: 'alias'; readonly alias: AliasOccurrence };

export const EMPTY_CONDENSE_STATE: CondenseState = {
	keying: 'occurrence',
	records: new Map(),
	indexedInOrder: [],
	keysByBareId: new Map(),
	aliases: new Map(),
	aliasesByBareId: new Map(),
	refKeys: new Map(),
	shortRefs: new Map(),
	refs: new Map(),
	summaries: [],
	chains: [],
	blockBodies: new Map(),
	spilled: [],
	nextRefNumber: 1,
	nextBlockNumber: 1,
	frontier: undefined,
	stats: undefined,
	diagnostics: [],
};
