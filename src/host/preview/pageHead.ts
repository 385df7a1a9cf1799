/**
 * What a page snapshot says besides the rows and the figures, from the session shown: which
 * pi-condense and whether it is installed, the status text (the status bar's own, so the two never
 * disagree; a what-if's when one is applied), the chains left for `compact`, the pending work with
 * what Summarize now would do and reclaim (the dry run of the flush the confirmation also reads),
 * and the two buttons. Computed in slices from the views' insight. The dry run is not waited for:
 * until it has finished (a large backlog takes a while) the page says the pending batches alone, and
 * `estimating` resolves when the snapshot can say it all.
 */
import { notices } from '../../engine/flush';
import { pageActions, type PageActions, pendingWork, pendingWorkEstimating, type PendingWork } from '../../engine/views';
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
	/** The dry run under way, when `pending` waits for it; resolves (never rejects) when it ends. */
	readonly estimating: Promise<void> | undefined;
}

export async function pageHead(work: SliceRunner, session: ShownSession | undefined, whatIfChanged: boolean): Promise<PageHead> {
	const installed = session?.followed.installed ?? true;
	const derived = installed ? session?.derived : undefined;
	const left = derived ? await work.sliced(derived.compactableChainsSteps()) : 0;
	const batches = derived ? await work.sliced(derived.pendingSteps()) : [];
	const settled = derived?.settledEstimate('now');
	let pending: PendingWork | undefined;
	let estimating: Promise<void> | undefined;
	if (session && settled) {
		pending = pendingWork(settled, session.rules.version);
	} else if (derived && batches.length > 0) {
		pending = pendingWorkEstimating(batches);
		const estimate = session?.estimateNow?.() ?? derived.flushEstimate('now', { hash: sha1Hex, runSteps: (steps) => work.sliced(steps) }, Date.now());
		estimating = estimate.then(() => undefined, () => undefined);
	}
	return {
		followed: session?.followed,
		statusLine: whatIfChanged ? undefined : session?.statusLine,
		compactable: left > 0 ? notices.compactableChainsText(left) : '',
		pending,
		actions: session?.actions ?? pageActions(installed ? 'on' : 'not-installed', true, pending?.batches ?? 0),
		estimating,
	};
}
