/**
 * The context preview's data model: what the webview shows, one row per message of a context, with
 * bounded texts, badges and sizes. Types only; shared with the webview through
 * `src/shared/protocol.ts`, so everything here is plain JSON (no Map, no class, no function).
 */

import type { BoundedText } from '../../base/boundedText';

export type { BoundedText } from '../../base/boundedText';

export type PreviewBlock =
	| { readonly kind: 'text'; readonly text: BoundedText }
	/** Summaries, compressed-chain bodies, compaction and branch summaries: rendered as sanitized markdown. */
	| { readonly kind: 'markdown'; readonly text: BoundedText }
	| { readonly kind: 'thinking'; readonly text: BoundedText; readonly redacted: boolean }
	/** `text` is the arguments as pretty JSON; `purgedSize` is set when error purge replaced them. */
	| { readonly kind: 'toolCall'; readonly id: string; readonly name: string; readonly text: BoundedText; readonly purgedSize?: number }
	| { readonly kind: 'toolResult'; readonly toolName: string; readonly isError: boolean; readonly text: BoundedText }
	| { readonly kind: 'image'; readonly mimeType: string; readonly bytes: number };

export type RowKind =
	/** Pi 1.x: the system prompt and tools (the leading one) or a later change of them. */
	| 'system'
	| 'user' | 'assistant' | 'toolResult' | 'bashExecution' | 'custom' | 'branchSummary' | 'compactionSummary'
	/** pi-condense's synthetic `<compressed-chain>` user message. */
	| 'chain'
	/** A `context-prune-summary` custom message. */
	| 'summary';

export type BadgeKind =
	| 'stub' | 'spilled' | 'alias' | 'chain' | 'summary' | 'purgedArgs' | 'thinkingStripped' | 'protected'
	/** Before view: the message is not sent (dropped by a compressed chain or the orphan check). */
	| 'dropped'
	/** Pi 1.x: a later system message sent inside the leading one (Pi replays them all when the conversation changed). */
	| 'folded'
	/** Pi 1.x: a `context_edit` replaced what the entry says. */
	| 'edited'
	/** Pi 1.x: the leading system message as sent, every system message of the context replayed into it. */
	| 'replayed'
	/** What-if: a chain that the next flush would compress under the changed rolling window. */
	| 'simulated'
	| 'error';

export interface RowBadge {
	readonly kind: BadgeKind;
	readonly label: string;
	/** Longer explanation for a tooltip. */
	readonly detail?: string;
}

/** What a stub stands for: the raw tool output it replaced. */
export interface StubOrigin {
	/** The ref the stub names (`tN`, else the raw tool-call id); recovery accepts it. */
	readonly ref: string;
	readonly toolCallId: string;
	readonly toolName: string;
	readonly kind: 'summarized' | 'spilled' | 'alias';
	/** For an alias: the tool-call id of the original output. */
	readonly aliasOf?: string;
	readonly originalChars: number;
	readonly originalTokens: number;
	/** Head of the original output (bounded). */
	readonly head: string;
	readonly spillBytes?: number;
}

/** Pi 1.x: a message Pi sends with the content a `context_edit` gave it; the entry itself is unchanged. */
export interface EditedOrigin {
	readonly editId: string;
	/** What the entry says (bounded). */
	readonly entryText: string;
}

/** Pi 1.x: an entry a `context_edit` changed, for the notes above the rows. */
export interface ContextEditNote {
	readonly editId: string;
	readonly entryId: string;
	/** `omitted`: Pi leaves the entry out; `replaced`: Pi sends it with other content. */
	readonly kind: 'omitted' | 'replaced';
	readonly role: string;
	/** What the entry says (bounded). */
	readonly entryText: string;
}

export interface PreviewRow {
	/** Stable across live updates: `m<raw index>` for a message from Pi's context, `b<id>` for a synthetic chain. */
	readonly key: string;
	readonly kind: RowKind;
	/** Short text for the row header: tool name, custom type, block id… */
	readonly title: string;
	readonly entryId?: string;
	readonly timestamp: number;
	/** `JSON.stringify(message).length`, pi-condense's measure. */
	readonly chars: number;
	readonly tokens: number;
	readonly blocks: readonly PreviewBlock[];
	/** Blocks left out of `blocks` by the bound (sent on expand). */
	readonly hiddenBlocks: number;
	/** True when any block text is cut or blocks are hidden. */
	readonly truncated: boolean;
	readonly badges: readonly RowBadge[];
	readonly stub?: StubOrigin;
	/** Pi 1.x: Pi sends this message's content as a `context_edit` replaced it. */
	readonly edited?: EditedOrigin;
	/** Tool-call ids this row calls or answers. */
	readonly toolCallIds: readonly string[];
	/** Index of the same message in the other view (before ↔ after); undefined when it has none. */
	readonly counterpart?: number;
}
