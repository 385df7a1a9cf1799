/**
 * What pruning now would do to the provider's cache, as the status bar's tooltip and the Summarize
 * Now confirmation say it: from the ledger's last requests (is the cache warm, until when, what a
 * re-written token costs), the request that made the first pending call (what comes before the first
 * change stays cached) and what the prune removes. Cheap: the last requests and entries only. Pure.
 */
import type { SessionEntry } from '../session/types';
import type { CostsLedger } from './costsLedger';
import { pruneNowCacheText } from './costsTexts';
import type { PriceBook } from './prices';

export interface PruneNowInputs {
	readonly ledger: CostsLedger;
	/** The session's entries (the ledger's). */
	readonly entries: readonly SessionEntry[];
	/** The first tool call pruning now would change; undefined when nothing is pending. */
	readonly firstPendingCallId: string | undefined;
	/** Tokens the prune would take off the context. */
	readonly removedTokens: number;
	readonly book: PriceBook;
	readonly now: number;
	/** A moment as the user reads it (`14:32`). */
	readonly clock: (at: number) => string;
}

export function pruneNowCacheLine(inputs: PruneNowInputs): string {
	const state = inputs.ledger.cacheAt(inputs.now, inputs.book);
	const callEntry = state.kind === 'warm' && inputs.firstPendingCallId !== undefined ? callEntryIdOf(inputs.entries, inputs.firstPendingCallId) : undefined;
	const rewrite = state.kind === 'warm' && callEntry !== undefined ? inputs.ledger.rewriteTokensAfter(state.cachedTokens, callEntry, inputs.removedTokens) : undefined;
	return pruneNowCacheText(state, rewrite, inputs.now, inputs.clock);
}

/** The entry of the assistant message that made tool call `toolCallId`, searched from the end (pending calls are recent). */
export function callEntryIdOf(entries: readonly SessionEntry[], toolCallId: string): string | undefined {
	for (let i = entries.length - 1; i >= 0; i--) {
		const entry = entries[i] as SessionEntry;
		if (entry.type === 'message' && entry.message.role === 'assistant' && entry.message.content.some((block) => block.type === 'toolCall' && block.id === toolCallId)) {
			return entry.id;
		}
	}
	return undefined;
}
