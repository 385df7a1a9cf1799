/**
 * What the preview page offers to do about the session it shows: its two buttons (Summarize now,
 * Compact), each enabled or saying why not, in the state's words (`pruneState.ts`). The pending work
 * beside them is `estimateText.ts`'s. Pure; the types travel to the page.
 */
import type { PruneState } from './pruneState';

export interface PageAction {
	readonly enabled: boolean;
	/** What the button does, or why it cannot now (its tooltip; shown beside it when disabled). */
	readonly reason: string;
}

export interface PageActions {
	readonly summarize: PageAction;
	readonly compact: PageAction;
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
