/**
 * What the preview page offers to do about the session it shows: its pending work with the estimate
 * of what summarizing it reclaims, and its two buttons (Summarize now, Compact), each enabled or
 * saying why not, in the state's words (`pruneState.ts`). Pure; the types travel to the page.
 */
import type { PruneState } from './pruneState';
import { charsToTokens } from '../condense/measure/compactFormat';
import type { PendingEstimate } from '../preview/pendingEstimate';

/** The pending batches as the page shows them, with the estimate (tokens, as pi-condense counts: chars / 4). */
export interface PendingWork {
	readonly batches: number;
	readonly summarizedBatches: number;
	readonly toolCalls: number;
	readonly rawChars: number;
	readonly reclaimTokens: number;
	/** The summary share assumed, in percent, and where it comes from. */
	readonly summaryPercent: number;
	readonly ratioFrom: 'session' | 'typical';
}

export interface PageAction {
	readonly enabled: boolean;
	/** What the button does, or why it cannot now (its tooltip; shown beside it when disabled). */
	readonly reason: string;
}

export interface PageActions {
	readonly summarize: PageAction;
	readonly compact: PageAction;
}

export function pendingWork(estimate: PendingEstimate): PendingWork | undefined {
	if (estimate.batches === 0) {
		return undefined;
	}
	return {
		batches: estimate.batches,
		summarizedBatches: estimate.summarizedBatches,
		toolCalls: estimate.toolCalls,
		rawChars: estimate.rawChars,
		reclaimTokens: charsToTokens(estimate.reclaimChars),
		summaryPercent: Math.round(estimate.summaryRatio * 100),
		ratioFrom: estimate.ratioFrom,
	};
}

const RESTRICTED = 'This workspace is in restricted mode: trust it to let Pi Condense write to sessions.';

export function pageActions(state: PruneState, trusted: boolean, pendingBatches: number): PageActions {
	const blocked = !trusted ? RESTRICTED
		: state === 'not-installed' ? 'Pi has no pi-condense: install it first (Pi Condense: Install pi-condense in Pi…).'
			: undefined;
	const summarizeBlocked = blocked ?? (state === 'off' ? 'Pruning is off in Pi\'s settings: turn it on first.'
		: pendingBatches === 0 ? 'Nothing is pending.' : undefined);
	return {
		summarize: summarizeBlocked === undefined
			? { enabled: true, reason: 'Summarize the pending batches now (/pruner now); says what it will write first.' }
			: { enabled: false, reason: summarizeBlocked },
		compact: blocked === undefined
			? { enabled: true, reason: 'Compress every eligible closed chain now (/pruner compact); says what it will write first.' }
			: { enabled: false, reason: blocked },
	};
}
