/**
 * What pruning the selected session now would do to the provider's cache, in one line of text, for
 * the status bar's tooltip and the Summarize Now and Compact confirmations: from the store's costs
 * ledger, the views' insight and the prune's estimate (all already computed; this reads the last
 * requests and entries only).
 * Prices are the ones the requests recorded (a request that recorded none gives no dollar figure).
 */
import { charsToTokens } from '../../engine/condense';
import { NO_PRICES, pruneNowCacheLine } from '../../engine/costs';
import type { SessionController } from '../sessionController';

/**
 * '' when `path` is not the selected session, or its file shows no cached prompt. `removedChars`:
 * what the prune takes off the request (its dry run's estimate); undefined while not known (the
 * line then says how long the cache stays warm, not what pruning re-writes).
 */
export function pruneNowCacheText(controller: SessionController, path: string | undefined, now: number, removedChars: number | undefined): string {
	const session = controller.selectedOpenSession();
	const insight = controller.insight();
	if (!session?.costs || !insight || path === undefined || controller.selected !== path) {
		return '';
	}
	return pruneNowCacheLine({
		ledger: session.costs,
		entries: session.model.entries,
		firstPendingCallId: removedChars === undefined ? undefined : insight.pending[0]?.toolCalls[0]?.toolCallId,
		removedTokens: charsToTokens(removedChars ?? 0),
		book: NO_PRICES,
		now,
		clock: (at) => new Date(at).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' }),
	});
}
