/**
 * The page state the host sends besides the rows (see `ViewRows`): token bars, the last call's real usage,
 * the cache-impact estimate, the known refs and the what-if settings. Types only (plain JSON).
 */
import type { ContextEditNote } from './types';

export type ViewName = 'after' | 'before';

export type BarCategory = 'system' | 'user' | 'assistantText' | 'thinking' | 'toolCalls' | 'toolResults' | 'summaries' | 'compressedChains' | 'other';

export interface TokenBar {
	readonly category: BarCategory;
	readonly label: string;
	readonly beforeTokens: number;
	readonly afterTokens: number;
}

export interface TokenTotals {
	/** pi-condense's own measure, its footer's: the conversation without Pi 1.x's system messages (see views/reclaimFigures.ts). */
	readonly conversation: { readonly beforeTokens: number; readonly afterTokens: number; readonly percent: number };
	/** The rest is the whole request, with the system prompt. */
	readonly beforeTokens: number;
	readonly afterTokens: number;
	readonly reclaimedTokens: number;
	/** 0–100, clamped at 0 as pi-condense's status line does. */
	readonly reclaimPercent: number;
	readonly beforeMessages: number;
	readonly afterMessages: number;
}

/** The usage Pi recorded on the last completed assistant message (the real figures of the last call). */
export interface LastCallUsage {
	readonly provider: string;
	readonly model: string;
	readonly timestamp: number;
	readonly input: number;
	readonly output: number;
	readonly cacheRead: number;
	readonly cacheWrite: number;
	readonly totalTokens: number;
	readonly costTotal: number;
}

/** A session's token and cost totals, as Pi 1.x counts them over every entry of the file. */
export interface SessionUsage {
	readonly tokens: number;
	readonly cost: number;
	/** How many `usage` entries (cache warming and other work outside the conversation) are in them. */
	readonly usageEntries: number;
}

export interface PricePerMillion {
	readonly input: number;
	readonly cacheRead: number;
	readonly cacheWrite: number;
}

/** One scenario of the next call's input: cached prefix and tokens to prefill, with their cost. */
export interface CallEstimate {
	/** Tokens of the next call's messages that match the previous call's (read from the cache). */
	readonly cachedTokens: number;
	/** Tokens from the break point to the end (prefilled, and written to the cache). */
	readonly prefillTokens: number;
	/** USD; undefined without prices. Includes the unseen prefix at the cache-read price. */
	readonly cost: number | undefined;
}

export interface CacheImpact {
	/** Whether a previous call was found (an assistant reply on the branch). */
	readonly hasPreviousCall: boolean;
	/** Index, in the pruned context, of the first message that differs from the previous call's. */
	readonly breakIndex: number;
	/** Messages of the previous call's (rendered) context. */
	readonly previousMessages: number;
	/** Tokens the previous call had cached or wrote that the next call can no longer reuse. */
	readonly invalidatedTokens: number;
	/** System prompt and tool definitions (not in the session), estimated from the last call's usage. */
	readonly unseenPrefixTokens: number;
	readonly withPruning: CallEstimate;
	readonly withoutPruning: CallEstimate;
	/** Extra USD the pruned call costs now (negative: it is cheaper at once). */
	readonly extraCost: number | undefined;
	/** USD each later call saves by sending the smaller context from the cache. */
	readonly savingPerLaterCall: number | undefined;
	/** Later calls until the extra cost is paid back; undefined when there is nothing to pay back. */
	readonly paybackCalls: number | undefined;
	readonly prices: PricePerMillion | undefined;
	/** Where `prices` come from: pi-ai's price list for the model, or the cost Pi recorded for the last call. */
	readonly priceSource: 'pi-ai' | 'last-call' | undefined;
	/** USD Pi recorded for the last call (its reply's usage); undefined before a reply. */
	readonly lastCallCost: number | undefined;
	/** Which price the prefill was charged at. */
	readonly prefillPrice: 'cacheWrite' | 'input' | undefined;
	readonly pricingModel: string | undefined;
	readonly contextWindow: number | undefined;
	/** Epoch ms of the previous call (its reply's timestamp), for the cache-lifetime note. */
	readonly previousCallAt: number | undefined;
}

/** The pruning settings the page can change without writing anything, by their `contextPrune` keys (dotted). */
export interface WhatIfSettings {
	readonly 'chainCompression.rollingWindow': number;
	readonly 'thinkingStrip.enabled': boolean;
	readonly 'thinkingStrip.keepLastTurns': number;
	readonly 'purgeErrors.cooldownTurns': number;
	readonly protectedTools: readonly string[];
}

export interface WhatIfState {
	/** Whether the release has a thinking strip at all (up to 2.4.3); otherwise its settings do nothing. */
	readonly thinkingStripApplies: boolean;
	/** The settings in Pi's settings.json. */
	readonly configured: WhatIfSettings;
	/** What the rows show: the configured settings with the page's overrides. */
	readonly effective: WhatIfSettings;
	/** `contextPrune` keys that differ, with their new values (what Apply would write). */
	readonly changes: ReadonlyArray<{ readonly key: string; readonly value: unknown }>;
	/** Chains the next flush would compress under the changed window (block ids). */
	readonly simulatedChains: readonly string[];
	/** Of the simulated chains, those no summary covers: their body lists their tool calls (2.9.0's deterministic body). */
	readonly uncoveredChains: number;
}

/** A ref the page can hover and open: `tN` (or a raw id) and compressed blocks `bN`. */
export interface RefInfo {
	readonly ref: string;
	readonly kind: 'tool' | 'block';
	readonly toolName?: string;
	readonly chars?: number;
	/** For a block: the tool-call ids its chain dropped. */
	readonly toolCallIds?: readonly string[];
}

/** A defect of the user's pi-condense release that changes what is sent (shown as a warning row). */
export interface PreviewWarning {
	readonly kind: string;
	/** What happens, what the provider does about it, and the release that fixes it. */
	readonly message: string;
	readonly fixedIn?: string;
}

/** What the page shows of one what-if for both views, apart from their rows: bars, totals, cache, usage, the what-if, refs, warnings. */
export interface PageFigures {
	readonly sessionPath: string;
	readonly title: string;
	readonly enabled: boolean;
	/** The pi-condense release the context is rendered as (e.g. `2.9.1`). */
	readonly release: string;
	readonly statusText: string;
	readonly bars: readonly TokenBar[];
	readonly totals: TokenTotals;
	readonly usage: LastCallUsage | undefined;
	/** Pi's totals of the whole session (as its `/session` counts them, usage entries included). */
	readonly sessionUsage: SessionUsage | undefined;
	readonly cache: CacheImpact;
	readonly whatIf: WhatIfState;
	readonly refs: readonly RefInfo[];
	readonly diagnostics: readonly string[];
	readonly warnings: readonly PreviewWarning[];
	/** Pi 1.x: the entries `context_edit`s changed (Pi leaves them out, or sends other content). */
	readonly contextEdits: readonly ContextEditNote[];
	/** Epoch ms the snapshot was computed. */
	readonly computedAt: number;
}
