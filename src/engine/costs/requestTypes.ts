/**
 * One model request as Pi recorded it, and the totals Pi 1.6.0 counts over them.
 *
 * A request is every usage Pi writes into a session file: an assistant reply's (the conversation's
 * requests), a `usage` entry's (Pi 1.x: model work outside the conversation, such as cache warming),
 * a compaction's or branch summary's (the summary's own call) and a tool result's (model work a tool
 * did itself). Pi's `/session` totals count them all; only the conversation's requests carry the
 * context that pruning shrinks. Types, the sums' arithmetic and a request's model key.
 */

/** Where a request's usage was recorded. */
export type RequestKind =
	/** An assistant message: one request of the conversation. */
	| 'reply'
	/** A Pi 1.x `usage` entry (`kind` says which: `cache_warm`…). */
	| 'usage'
	/** The call that wrote a compaction's or branch summary's summary. */
	| 'summary'
	/** A tool result's nested model work. */
	| 'tool';

/** Tokens of one request, as the provider reported them (Pi's `usage`). */
export interface RequestTokens {
	readonly input: number;
	readonly output: number;
	readonly cacheRead: number;
	readonly cacheWrite: number;
	/** Anthropic: the part of `cacheWrite` written with the 1-hour lifetime (pi-ai 1.x). */
	readonly cacheWrite1h: number | undefined;
	/** As recorded (0 when absent). */
	readonly totalTokens: number;
}

/** USD, as recorded (Pi's `usage.cost`). */
export interface RequestCost {
	readonly input: number;
	readonly output: number;
	readonly cacheRead: number;
	readonly cacheWrite: number;
	readonly total: number;
}

export interface RequestPoint {
	/** Position among the session's requests (file order), from 0. */
	readonly index: number;
	/** Position of the entry that recorded it among the session's entries (`SessionModel.entries`). */
	readonly entryIndex: number;
	readonly kind: RequestKind;
	/** `usage` entries: their `kind` (`cache_warm`, …). */
	readonly usageKind?: string | undefined;
	/** The entry that recorded the usage. */
	readonly entryId: string;
	/** The entry's ISO timestamp (when Pi wrote it): what days, weeks and duplicates are keyed by. */
	readonly entryTimestamp: string;
	/** Epoch ms the request was made: the assistant message's own `timestamp`, else the entry's. */
	readonly at: number;
	readonly provider: string;
	readonly model: string;
	/** `anthropic-messages`, `openai-responses`… (replies only). */
	readonly api?: string | undefined;
	/** Replies: `stop`, `toolUse`, `error`, `aborted`… */
	readonly stopReason?: string | undefined;
	readonly tokens: RequestTokens;
	readonly cost: RequestCost;
	/** input + cache read + cache write: the prompt the provider saw. */
	readonly contextTokens: number;
}

/** A session's totals as Pi 1.6.0's `/session` counts them. */
export interface UsageSums {
	readonly requests: number;
	readonly input: number;
	readonly output: number;
	readonly cacheRead: number;
	readonly cacheWrite: number;
	/** USD: the sum of each request's recorded `cost.total`. */
	readonly cost: number;
	/** USD by part (the recorded `cost.input`, `cost.output`…). */
	readonly costInput: number;
	readonly costOutput: number;
	readonly costCacheRead: number;
	readonly costCacheWrite: number;
}

export const EMPTY_SUMS: UsageSums = {
	requests: 0, input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: 0, costInput: 0, costOutput: 0, costCacheRead: 0, costCacheWrite: 0,
};

/** `sums` with one more request. */
export function addRequest(sums: UsageSums, point: Pick<RequestPoint, 'tokens' | 'cost'>): UsageSums {
	return {
		requests: sums.requests + 1,
		input: sums.input + point.tokens.input,
		output: sums.output + point.tokens.output,
		cacheRead: sums.cacheRead + point.tokens.cacheRead,
		cacheWrite: sums.cacheWrite + point.tokens.cacheWrite,
		cost: sums.cost + point.cost.total,
		costInput: sums.costInput + point.cost.input,
		costOutput: sums.costOutput + point.cost.output,
		costCacheRead: sums.costCacheRead + point.cost.cacheRead,
		costCacheWrite: sums.costCacheWrite + point.cost.cacheWrite,
	};
}

/** Tokens of all four kinds. */
export function totalTokensOf(sums: Pick<UsageSums, 'input' | 'output' | 'cacheRead' | 'cacheWrite'>): number {
	return sums.input + sums.output + sums.cacheRead + sums.cacheWrite;
}

/** `provider/model` of a request. */
export const modelKeyOf = (request: Pick<RequestPoint, 'provider' | 'model'>): string => `${request.provider}/${request.model}`;
