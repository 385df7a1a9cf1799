/**
 * Pi's session and message shapes (Pi 0.73.1, session format v3), as they are on disk and as
 * `buildSessionContext` returns them. Types only: the parser in this folder narrows raw JSON into
 * these shapes and reports anything that does not fit as a diagnostic.
 *
 * Reference: the entries Pi's session manager writes (format version 3; v1 and v2 are migrated on read).
 */

// ── Content blocks (pi-ai) ─────────────────────────────────────────────────

export interface TextContent {
	readonly type: 'text';
	readonly text: string;
	readonly textSignature?: string;
}

export interface ThinkingContent {
	readonly type: 'thinking';
	readonly thinking: string;
	readonly thinkingSignature?: string;
	readonly redacted?: boolean;
}

export interface ImageContent {
	readonly type: 'image';
	readonly data: string;
	readonly mimeType: string;
}

export interface ToolCall {
	readonly type: 'toolCall';
	readonly id: string;
	readonly name: string;
	readonly arguments: Readonly<Record<string, unknown>>;
	readonly thoughtSignature?: string;
}

export type AssistantContent = TextContent | ThinkingContent | ToolCall;
export type UserContent = TextContent | ImageContent;

export interface UsageCost {
	readonly input: number;
	readonly output: number;
	readonly cacheRead: number;
	readonly cacheWrite: number;
	readonly total: number;
}

export interface Usage {
	readonly input: number;
	readonly output: number;
	readonly cacheRead: number;
	readonly cacheWrite: number;
	readonly totalTokens: number;
	readonly cost: UsageCost;
}

export type StopReason = 'stop' | 'length' | 'toolUse' | 'error' | 'aborted';

// ── Messages ───────────────────────────────────────────────────────────────

export interface UserMessage {
	readonly role: 'user';
	readonly content: string | readonly UserContent[];
	readonly timestamp: number;
}

export interface AssistantMessage {
	readonly role: 'assistant';
	readonly content: readonly AssistantContent[];
	readonly api: string;
	readonly provider: string;
	readonly model: string;
	readonly responseModel?: string;
	readonly responseId?: string;
	readonly usage: Usage;
	readonly stopReason: StopReason;
	readonly errorMessage?: string;
	readonly timestamp: number;
}

export interface ToolResultMessage {
	readonly role: 'toolResult';
	readonly toolCallId: string;
	readonly toolName: string;
	readonly content: readonly UserContent[];
	readonly details?: unknown;
	readonly isError: boolean;
	readonly timestamp: number;
}

/** The user's `!cmd` in Pi. */
export interface BashExecutionMessage {
	readonly role: 'bashExecution';
	readonly command: string;
	readonly output: string;
	readonly exitCode: number | undefined;
	readonly cancelled: boolean;
	readonly truncated: boolean;
	readonly fullOutputPath?: string;
	readonly excludeFromContext?: boolean;
	readonly timestamp: number;
}

/** An extension message (`custom_message` entry, or a migrated v2 `hookMessage`). */
export interface CustomMessage {
	readonly role: 'custom';
	readonly customType: string;
	readonly content: string | readonly UserContent[];
	readonly display: boolean;
	readonly details?: unknown;
	readonly timestamp: number;
}

/** Synthesized from a `branch_summary` entry; never stored as a message. */
export interface BranchSummaryMessage {
	readonly role: 'branchSummary';
	readonly summary: string;
	readonly fromId: string;
	readonly timestamp: number;
}

/** Synthesized from a `compaction` entry; never stored as a message. */
export interface CompactionSummaryMessage {
	readonly role: 'compactionSummary';
	readonly summary: string;
	readonly tokensBefore: number;
	readonly timestamp: number;
}

/** What Pi's `buildSessionContext` returns and what extensions see in the `context` event. */
export type AgentMessage =
	| UserMessage
	| AssistantMessage
	| ToolResultMessage
	| BashExecutionMessage
	| CustomMessage
	| BranchSummaryMessage
	| CompactionSummaryMessage;

/** What reaches a provider after Pi's `convertToLlm`. */
export type LlmMessage = UserMessage | AssistantMessage | ToolResultMessage;

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
	readonly message: AgentMessage;
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
	readonly firstKeptEntryId?: string;
	readonly tokensBefore: number;
	readonly details?: unknown;
	readonly fromHook?: boolean;
}

export interface BranchSummaryEntry extends EntryBase {
	readonly type: 'branch_summary';
	readonly fromId: string;
	readonly summary: string;
	readonly details?: unknown;
	readonly fromHook?: boolean;
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
}
