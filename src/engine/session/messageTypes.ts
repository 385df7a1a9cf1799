/**
 * Pi's message shapes (pi-ai's content blocks and usage, the coding agent's messages), as Pi 1.6.0's
 * `docs/message-types.md` describes them and as session files hold them. Types only; `types.ts` re-exports
 * them with the entry shapes.
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

/** The usage of work that called no model: offline, dry-run and demo summaries. */
export const NO_USAGE: Usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };

/** `deferred` from Pi 1.x (a response fetched later); Pi never stores `pending`. */
export type StopReason = 'stop' | 'length' | 'toolUse' | 'error' | 'aborted' | 'deferred';

// ── Messages ───────────────────────────────────────────────────────────────

/** A tool as a system message declares it to the model (pi-ai's `Tool`; its schema is kept as written). */
export interface ToolDeclaration {
	readonly name: string;
	readonly description?: string;
	readonly parameters?: unknown;
}

/**
 * Pi 1.x (0.86.0+): the prompt and tool loadout, stored in the transcript. The leading one declares the
 * prompt and tools; later ones append text, patch `sections` by name (`null` removes one) and add or
 * remove tools. Pi hands them to the provider, never to extensions' `context` handlers.
 */
export interface SystemMessage {
	readonly role: 'system';
	readonly content: string | readonly TextContent[];
	readonly sections?: Readonly<Record<string, string | null>>;
	readonly toolsAdded?: readonly ToolDeclaration[];
	readonly toolsRemoved?: readonly { readonly name: string }[];
	readonly timestamp: number;
}

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
	/** Pi 1.x: model work the tool did itself (session totals only). */
	readonly usage?: Usage;
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

/** What extensions see in Pi's `context` event: Pi's context without its system messages. */
export type AgentMessage =
	| UserMessage
	| AssistantMessage
	| ToolResultMessage
	| BashExecutionMessage
	| CustomMessage
	| BranchSummaryMessage
	| CompactionSummaryMessage;

/** What Pi's `buildSessionContext` returns: the conversation and, from Pi 1.x, its system messages in place. */
export type ContextMessage = AgentMessage | SystemMessage;

/** What reaches a provider after Pi's `convertToLlm`. */
export type LlmMessage = SystemMessage | UserMessage | AssistantMessage | ToolResultMessage;
