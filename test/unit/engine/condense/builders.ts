/**
 * Test support: hand-built Pi messages and session entries, and a tiny session builder that chains
 * entries and derives the context the way Pi's buildSessionContext does for a compaction-free path.
 */
import type {
	AgentMessage, AssistantContent, AssistantMessage, SessionEntry, ToolResultMessage, UserMessage,
} from '../../../../src/engine/session/types';
import type { ChainCompressionEntry, ToolCallRecord } from '../../../../src/engine/condense/types';

const USAGE = { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };

export function user(timestamp: number, text = `question ${timestamp}`): UserMessage {
	return { role: 'user', content: [{ type: 'text', text }], timestamp };
}

export function assistant(timestamp: number, ...content: AssistantContent[]): AssistantMessage {
	const toolUse = content.some((block) => block.type === 'toolCall');
	return {
		role: 'assistant', content, api: 'test', provider: 'test', model: 'test-model', usage: USAGE,
		stopReason: toolUse ? 'toolUse' : 'stop', timestamp,
	};
}

export const text = (value: string): AssistantContent => ({ type: 'text', text: value });
export const thinking = (value: string): AssistantContent => ({ type: 'thinking', thinking: value, thinkingSignature: `sig-${value}` });
export const call = (id: string, name: string, args: Record<string, unknown> = {}): AssistantContent => ({ type: 'toolCall', id, name, arguments: args });

export function result(toolCallId: string, toolName: string, timestamp: number, output: string, isError = false): ToolResultMessage {
	return { role: 'toolResult', toolCallId, toolName, content: [{ type: 'text', text: output }], details: { raw: true }, isError, timestamp };
}

export function record(toolCallId: string, toolName: string, resultText: string, extra: Partial<ToolCallRecord> = {}): ToolCallRecord {
	return { toolCallId, toolName, args: {}, resultText, isError: false, turnIndex: 0, timestamp: 1, ...extra };
}

export function chain(blockId: string, start: number, final: number | null, extra: Partial<ChainCompressionEntry> = {}): ChainCompressionEntry {
	return { blockId, startUserTimestamp: start, droppedToolCallIds: [], finalAssistantTimestamp: final, toolRefs: [], compressedAt: start + 10_000, ...extra };
}

function refOf([shortId, toolCallId, resultTimestamp]: readonly [string, string, number?]): Record<string, unknown> {
	return resultTimestamp === undefined ? { shortId, toolCallId } : { shortId, toolCallId, resultTimestamp };
}

/** Builds a branch in memory: appends entries as children of the previous one, with increasing ISO timestamps (test/support/sessionBuilder.ts writes session files). */
export class BranchBuilder {
	readonly entries: SessionEntry[] = [];
	private clock = Date.parse('2026-01-01T00:00:00.000Z');

	message(message: AgentMessage): this {
		return this.push({ type: 'message', message });
	}

	messages(...messages: AgentMessage[]): this {
		messages.forEach((m) => this.message(m));
		return this;
	}

	custom(customType: string, data: unknown): this {
		return this.push({ type: 'custom', customType, data });
	}

	index(...records: ToolCallRecord[]): this {
		return this.custom('context-prune-index', { toolCalls: records });
	}

	/** Refs are `[tN, toolCallId]`, or `[tN, toolCallId, resultTimestamp]` as 2.6.0+ writes them. */
	summary(content: string, refs: readonly (readonly [string, string, number?])[], turnIndex = 0): this {
		const details = { toolCallRefs: refs.map(refOf), toolNames: [], turnIndex, timestamp: 5 };
		return this.push({ type: 'custom_message', customType: 'context-prune-summary', content, display: true, details });
	}

	/** A 2.9.0+ index entry written by a deterministic chain compression, with its refs. */
	backfill(records: readonly ToolCallRecord[], refs: readonly (readonly [string, string, number?])[]): this {
		return this.custom('context-prune-index', { toolCalls: records, backfilled: true, refs: refs.map(refOf) });
	}

	/** A dedup alias; 2.6.0+ writes the result timestamps of both sides. */
	alias(newToolCallId: string, originalToolCallId: string, newResultTimestamp?: number, originalResultTimestamp?: number): this {
		return this.custom('context-prune-dedup-alias', {
			newToolCallId,
			originalToolCallId,
			...(newResultTimestamp === undefined ? {} : { newResultTimestamp }),
			...(originalResultTimestamp === undefined ? {} : { originalResultTimestamp }),
		});
	}

	frontier(lastAttemptedToolCallId: string, extra: Record<string, unknown> = {}): this {
		return this.custom('context-prune-frontier', {
			lastAttemptedToolCallId, lastAttemptedToolName: 'bash', lastAttemptedTurnIndex: 0, lastAttemptedTimestamp: 1,
			attemptedBatchCount: 1, attemptedToolCallCount: 1, rawCharCount: 1, summaryCharCount: 1, outcome: 'summarized', ...extra,
		});
	}

	/** A custom message another extension put in the context (role `custom` in Pi's context). */
	foreign(customType: string, content: string): this {
		return this.push({ type: 'custom_message', customType, content, display: true, details: {} });
	}

	chain(entry: ChainCompressionEntry): this {
		return this.custom('context-prune-chain', entry);
	}

	/** The branch (root → leaf): every entry, since the builder never branches. */
	get branch(): readonly SessionEntry[] {
		return this.entries;
	}

	/** Pi's context for this path (no compaction, no branch summary). */
	get context(): AgentMessage[] {
		return this.entries.flatMap((entry): AgentMessage[] => {
			if (entry.type === 'message') {
				// The builders write no Pi 1.x system message: the conversation a `context` handler sees.
				return entry.message.role === 'system' ? [] : [entry.message];
			}
			if (entry.type === 'custom_message') {
				const { customType, content, display, details } = entry;
				return [{ role: 'custom', customType, content, display, details, timestamp: Date.parse(entry.timestamp) }];
			}
			return [];
		});
	}

	private push(fields: Record<string, unknown>): this {
		const parent = this.entries[this.entries.length - 1];
		this.clock += 1000;
		const id = `e${this.entries.length + 1}`;
		this.entries.push({ id, parentId: parent?.id ?? null, timestamp: new Date(this.clock).toISOString(), ...fields } as unknown as SessionEntry);
		return this;
	}
}
