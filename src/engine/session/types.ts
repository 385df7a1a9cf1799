/**
 * Pi's session shapes (session format v3, as Pi 1.6.0 writes it: Pi 0.73–0.85 files are the same without
 * system messages, `context_edit` and `usage` entries) and, from `messageTypes.ts`, its messages, as they
 * are on disk and as `buildSessionContext` returns them. Types only: the parser in this folder narrows raw
 * JSON into these shapes and reports anything that does not fit as a diagnostic.
 *
 * Reference: the entries Pi's session manager writes (format version 3; v1 and v2 are migrated on read),
 * and `docs/session-format.md` / `docs/message-types.md` of `@earendil-works/pi-coding-agent` 1.6.0.
 */

import type { AssistantContent, ContextMessage, SystemMessage, Usage, UserContent } from './messageTypes';

export type * from './messageTypes';
export { NO_USAGE } from './messageTypes';

// ── Entries ────────────────────────────────────────────────────────────────

export type ThinkingLevel = 'off' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh';

export interface SessionHeader {
	readonly type: 'session';
	/** Missing on disk means version 1. */
	readonly version?: number;
	readonly id: string;
	readonly timestamp: string;
	readonly cwd: string;
	readonly parentSession?: string;
}

interface EntryBase {
	readonly id: string;
	readonly parentId: string | null;
	/** ISO-8601 UTC with milliseconds. */
	readonly timestamp: string;
}

export interface MessageEntry extends EntryBase {
	readonly type: 'message';
	readonly message: ContextMessage;
}

export interface ModelChangeEntry extends EntryBase {
	readonly type: 'model_change';
	readonly provider: string;
	readonly modelId: string;
}

export interface ThinkingLevelChangeEntry extends EntryBase {
	readonly type: 'thinking_level_change';
	readonly thinkingLevel: string;
}

export interface CompactionEntry extends EntryBase {
	readonly type: 'compaction';
	readonly summary: string;
	/** Its own id in a retain-none compaction (Pi 0.87.0+): nothing before it is kept. */
	readonly firstKeptEntryId?: string;
	readonly tokensBefore: number;
	/** Pi 1.x: the prompt and tools replayed at the boundary, the leading system message of what follows. */
	readonly systemMessage?: SystemMessage;
	/** Pi 1.x: what generating the summary cost (session totals only). */
	readonly usage?: Usage;
	readonly details?: unknown;
	readonly fromHook?: boolean;
}

export interface BranchSummaryEntry extends EntryBase {
	readonly type: 'branch_summary';
	readonly fromId: string;
	readonly summary: string;
	readonly usage?: Usage;
	readonly details?: unknown;
	readonly fromHook?: boolean;
}

/**
 * Pi 0.87.0+: an append-only edit of one earlier message's contribution to the model context. `null`
 * omits the target; otherwise its content is replaced (a string becomes one text block for assistant
 * and tool-result targets). The latest edit of a target on the branch wins; the raw entry is unchanged.
 */
export interface ContextEditEntry extends EntryBase {
	readonly type: 'context_edit';
	readonly targetId: string;
	readonly replacement: { readonly content: string | readonly (UserContent | AssistantContent)[] } | null;
}

/** Pi 0.86.0+: model usage outside an assistant message (cache warming…): session totals, never context. */
export interface UsageEntry extends EntryBase {
	readonly type: 'usage';
	readonly kind: string;
	readonly provider?: string;
	readonly model?: string;
	readonly usage: Usage;
}

/** Extension state; never in the LLM context. */
export interface CustomEntry extends EntryBase {
	readonly type: 'custom';
	readonly customType: string;
	readonly data?: unknown;
}

/** Extension message; in the LLM context as a `custom` message. */
export interface CustomMessageEntry extends EntryBase {
	readonly type: 'custom_message';
	readonly customType: string;
	readonly content: string | readonly UserContent[];
	readonly display: boolean;
	readonly details?: unknown;
}

export interface LabelEntry extends EntryBase {
	readonly type: 'label';
	readonly targetId: string;
	/** Absent when the label was cleared. */
	readonly label?: string;
}

export interface SessionInfoEntry extends EntryBase {
	readonly type: 'session_info';
	readonly name?: string;
}

/**
 * An entry Pi keeps and chains but does not understand: an unknown `type`, or a known type whose
 * fields did not pass validation (then `invalid` says why). It takes part in the `parentId` tree
 * like any entry and never contributes to the context.
 */
export interface OpaqueEntry extends EntryBase {
	readonly type: 'opaque';
	/** The `type` written in the file (may be a known type whose fields were invalid). */
	readonly originalType: string;
	readonly invalid?: string;
}

export type KnownEntry =
	| MessageEntry
	| ModelChangeEntry
	| ThinkingLevelChangeEntry
	| CompactionEntry
	| BranchSummaryEntry
	| ContextEditEntry
	| UsageEntry
	| CustomEntry
	| CustomMessageEntry
	| LabelEntry
	| SessionInfoEntry;

export type SessionEntry = KnownEntry | OpaqueEntry;

// ── Diagnostics ────────────────────────────────────────────────────────────

export type DiagnosticSeverity = 'error' | 'warning';

/** A problem found while reading a session; `line` is 1-based, as an editor shows it. */
export interface SessionDiagnostic {
	readonly severity: DiagnosticSeverity;
	readonly line: number;
	readonly message: string;
	/**
	 * The line needs a Pi newer than the newest Pi we know (`NEWEST_KNOWN_PI`): what it is (`type:x`,
	 * `role:x`, `version`). Said once per file for each.
	 */
	readonly newerPi?: string;
	/**
	 * The problem cannot change what is sent (Pi leaves the line out of the context and pi-condense
	 * never reads it), so the file may still be written to.
	 */
	readonly writeSafe?: true;
}
