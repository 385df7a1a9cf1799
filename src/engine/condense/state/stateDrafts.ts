/**
 * Mutable drafts collected while walking a branch, before they are bound to each other and frozen
 * into a `CondenseState`. Internal to the state builder. Pure.
 */
import type { SessionDiagnostic } from '../../session/types';
import type { SummaryDetailsRead } from '../entryReaders';
import type { ChainCompressionEntry, PruneFrontier, SummarizerStats, ToolCallRecord } from '../types';

export interface RecordDraft {
	readonly key: string;
	readonly record: ToolCallRecord;
	readonly resultTimestamp: number | undefined;
	readonly entryId: string;
	/** Branch position of the index entry. */
	readonly position: number;
	shortRef: string | undefined;
}

export interface AliasDraft {
	readonly key: string;
	readonly toolCallId: string;
	readonly resultTimestamp: number | undefined;
	readonly originalToolCallId: string;
	readonly original: RecordDraft | undefined;
	readonly entryId: string;
}

export interface SummaryDraft {
	readonly entryId: string;
	readonly position: number;
	readonly text: string;
	readonly details: SummaryDetailsRead;
}

export interface ChainDraft {
	readonly entry: ChainCompressionEntry;
	readonly droppedKeys: ReadonlySet<string>;
	/** 1-based line of the `context-prune-chain` entry, when known (for diagnostics). */
	readonly line?: number;
}

export interface StateDrafts {
	readonly records: RecordDraft[];
	readonly recordsById: Map<string, RecordDraft[]>;
	readonly aliases: AliasDraft[];
	readonly summaries: SummaryDraft[];
	readonly chains: ChainDraft[];
	readonly diagnostics: SessionDiagnostic[];
	frontier: PruneFrontier | undefined;
	stats: SummarizerStats | undefined;
}

export function emptyDrafts(): StateDrafts {
	return {
		records: [],
		recordsById: new Map(),
		aliases: [],
		summaries: [],
		chains: [],
		diagnostics: [],
		frontier: undefined,
		stats: undefined,
	};
}
