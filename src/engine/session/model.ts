/**
 * The in-memory model of one session file, as produced by `parseSessionSteps` and advanced by
 * `appendToSession`. Types only. A model is an immutable snapshot: appending returns a new model
 * and leaves the previous one valid and unchanged.
 */
import type { ContextSources } from './contextSources';
import type { ContextEditEntry, ContextMessage, SessionDiagnostic, SessionEntry, SessionHeader } from './types';

export interface SessionModel {
	/** The header (line 1), or undefined when the file has no valid header (then `entries` is empty). */
	readonly header: SessionHeader | undefined;
	/** `header.version ?? 1`; 0 when there is no valid header. */
	readonly version: number;
	/** True when a v1/v2 file was migrated to v3 in memory (never written back). */
	readonly migrated: boolean;
	/** Non-header entries in file order (after in-memory migration). */
	readonly entries: readonly SessionEntry[];
	/** Problems found while reading, each with its 1-based line. */
	readonly diagnostics: readonly SessionDiagnostic[];
	/** Pi's leaf on load: the id of the last entry in file order; null when there are no entries. */
	readonly leafId: string | null;
	/** Session name from the last `session_info` in file order (trimmed; empty clears it). */
	readonly name: string | undefined;
	/** Number of `\n`-terminated lines read so far (blank lines included). */
	readonly lineCount: number;
	/** Text after the last `\n`: a line Pi may still be writing. Not parsed. */
	readonly pendingTail: string;
	/** The entry with this id (the last one in file order when ids repeat). */
	entryById(id: string): SessionEntry | undefined;
	/** 1-based line number of an entry in the file. */
	lineOf(entry: SessionEntry): number | undefined;
	/** Current label of an entry (labels are resolved over the whole file, not per branch). */
	labelOf(id: string): string | undefined;
}

export interface ModelRef {
	readonly provider: string;
	readonly modelId: string;
}

/** What Pi's `buildSessionContext` returns, with where each message came from (Pi's projection). */
export interface SessionContext {
	/** The conversation and, from Pi 1.x, its system messages in place; `context_edit`s applied. */
	readonly messages: readonly ContextMessage[];
	/** The entry each message came from, by index (a compaction gives its checkpoint and its summary), when asked for. */
	readonly sources: ContextSources;
	/** The latest `context_edit` of each target among the context's entries, by target id (omissions included). */
	readonly edits: ReadonlyMap<string, ContextEditEntry>;
	/** Entries of the context whose messages an edit left out (`replacement: null`), in path order. */
	readonly omitted: readonly SessionEntry[];
	readonly thinkingLevel: string;
	readonly model: ModelRef | null;
}

export interface SessionTreeNode {
	readonly entry: SessionEntry;
	readonly children: readonly SessionTreeNode[];
	readonly label: string | undefined;
}
