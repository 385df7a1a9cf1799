/**
 * Which detected chains to compress now (pi-condense's `selectEligible`). Pure.
 *
 * Candidates are the closed chains with a non-empty middle that are not compressed yet (by start
 * timestamp); all but the newest `keepRaw` of them are selected (`/pruner compact` passes 0). The
 * open chain never counts.
 */
import type { DetectedChain } from './detectChains';

export function selectChains(chains: readonly DetectedChain[], keepRaw: number, compressedStarts: ReadonlySet<number>): DetectedChain[] {
	const candidates = chains.filter((chain) => chain.finalAssistantTimestamp !== null
		&& chain.middleToolCallIds.length > 0
		&& !compressedStarts.has(chain.startUserTimestamp));
	return candidates.slice(0, Math.max(0, candidates.length - Math.max(0, keepRaw)));
}
