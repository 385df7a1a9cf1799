/**
 * What a page snapshot says besides the rows and the figures, from the session shown: which
 * pi-condense and whether it is installed, the status text (the status bar's own, so the two never
 * disagree; a what-if's when one is applied), the chains left for `compact`, the pending work with
 * what Summarize now would do and reclaim (the dry run of the flush the confirmation also reads),
 * and the two buttons. Computed in slices from the views' insight.
 */
import { notices } from '../../engine/flush';
import { pageActions, type PageActions, pendingWork, type PendingWork } from '../../engine/views';
import { sha1Hex } from '../../node/flush/sha1Hasher';
import type { SliceRunner } from '../../work';
import type { FollowedRelease, ShownSession } from './sessionFeed';

export interface PageHead {
	readonly followed: FollowedRelease | undefined;
	/** The status bar's text; undefined to keep the snapshot's (a what-if, or a source without one). */
	readonly statusLine: string | undefined;
	readonly compactable: string;
	readonly pending: PendingWork | undefined;
	readonly actions: PageActions;
}

export async function pageHead(work: SliceRunner, session: ShownSession | undefined, whatIfChanged: boolean): Promise<PageHead> {
	const installed = session?.followed.installed ?? true;
	const derived = installed ? session?.derived : undefined;
	const left = derived ? await work.sliced(derived.compactableChainsSteps()) : 0;
	const estimate = derived && session ? await derived.flushEstimate('now', { hash: sha1Hex, runSteps: (steps) => work.sliced(steps) }, Date.now()) : undefined;
	const pending = estimate && session && pendingWork(estimate, session.rules.version);
	return {
		followed: session?.followed,
		statusLine: whatIfChanged ? undefined : session?.statusLine,
		compactable: left > 0 ? notices.compactableChainsText(left) : '',
		pending,
		actions: session?.actions ?? pageActions(installed ? 'on' : 'not-installed', true, pending?.batches ?? 0),
	};
}
