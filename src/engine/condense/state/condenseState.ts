/**
 * pi-condense's state as rebuilt from the active branch: what is summarized, under which `tN`,
 * which ids are dedup aliases, which chains are compressed, and the last frontier and stats.
 * Types and read-only lookups. Pure.
 */
import type { SessionDiagnostic, ToolResultMessage } from '../../session/types';
import { resultOccurrenceKey } from '../occurrence';
import type { ChainCompressionEntry, PruneFrontier, SummarizerStats, ToolCallRecord } from '../types';

/** One indexed tool call, bound to the tool result it covers. */
export interface RecordOccurrence {
	/** `id@resultTimestamp`, or the bare id when the result is not on the branch. */
	readonly key: string;
	readonly record: ToolCallRecord;
	readonly resultTimestamp: number | undefined;
	/** `tN` from the summary that lists this call; undefined for spilled records. */
	readonly shortRef: string | undefined;
	/** Id of the `context-prune-index` entry. */
	readonly entryId: string;
}

/** A duplicate tool result that pi-condense pointed at an earlier record instead of summarizing it. */
export interface AliasOccurrence {
	readonly key: string;
	readonly toolCallId: string;
	readonly resultTimestamp: number | undefined;
	readonly originalToolCallId: string;
	/** The original's record; undefined when no record of that id precedes the alias entry. */
	readonly original: RecordOccurrence | undefined;
	readonly entryId: string;
}

export interface SummaryRef {
	readonly shortId: string;
	readonly toolCallId: string;
	/** Occurrence key of the record this ref names; undefined when no record matches. */
	readonly key: string | undefined;
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
	/** Occurrences of the dropped ids between the chain's start and its entry. */
	readonly droppedKeys: ReadonlySet<string>;
	/** `rangeSummaryText`, else the distinct covering summaries joined with a blank line. */
	readonly bodyText: string;
	/** 1-based line of the chain's entry in the session file, when known. */
	readonly line?: number;
}

export interface CondenseState {
	/** Indexed records by occurrence key. */
	readonly records: ReadonlyMap<string, RecordOccurrence>;
	/** Dedup aliases by the alias's occurrence key. */
	readonly aliases: ReadonlyMap<string, AliasOccurrence>;
	/** `tN` → record. */
	readonly refs: ReadonlyMap<string, RecordOccurrence>;
	/** Records and aliases by bare tool-call id, in branch order. */
	readonly byToolCallId: ReadonlyMap<string, readonly (RecordOccurrence | AliasOccurrence)[]>;
	readonly summaries: readonly SummaryInfo[];
	/** Compressed chains, one per start timestamp (the last entry wins), oldest start first. */
	readonly chains: readonly ChainInfo[];
	readonly spilled: readonly RecordOccurrence[];
	/** Number for the next `tN`: the highest persisted ref + 1. */
	readonly nextRefNumber: number;
	/** Number for the next `bN`: the highest persisted block + 1. */
	readonly nextBlockNumber: number;
	readonly frontier: PruneFrontier | undefined;
	readonly stats: SummarizerStats | undefined;
	readonly diagnostics: readonly SessionDiagnostic[];
}

export type ResultCoverage =
	| { readonly kind: 'record'; readonly occurrence: RecordOccurrence }
	| { readonly kind: 'alias'; readonly alias: AliasOccurrence };

/**
 * Whether a tool result message is summarized (indexed) or aliased, and by what. Matched by
 * occurrence; an entry whose result was not found before it on the branch is kept under the bare
 * id and still matches any result of that id (pi-condense's own rule).
 */
export function coverageOf(state: CondenseState, message: ToolResultMessage): ResultCoverage | undefined {
	return coverageByKey(state, resultOccurrenceKey(message)) ?? coverageByKey(state, message.toolCallId);
}

function coverageByKey(state: CondenseState, key: string): ResultCoverage | undefined {
	const occurrence = state.records.get(key);
	if (occurrence) {
		return { kind: 'record', occurrence };
	}
	const alias = state.aliases.get(key);
	return alias ? { kind: 'alias', alias } : undefined;
}

export function isRecordOccurrence(item: RecordOccurrence | AliasOccurrence): item is RecordOccurrence {
	return 'record' in item;
}

export const EMPTY_CONDENSE_STATE: CondenseState = {
	records: new Map(),
	aliases: new Map(),
	refs: new Map(),
	byToolCallId: new Map(),
	summaries: [],
	chains: [],
	spilled: [],
	nextRefNumber: 1,
	nextBlockNumber: 1,
	frontier: undefined,
	stats: undefined,
	diagnostics: [],
};
