/**
 * What-if for the rolling window: the chains the next flush would compress if the window were K,
 * added to the state as they would be rendered. Pure; the input state is not changed.
 *
 * It plans exactly as the flush does (the flush's chain detection, selection and jobs): the
 * candidates are the closed chains with a non-empty middle that are not compressed yet, all but the
 * newest K are compressed, and a chain no per-batch summary covers gets the deterministic body
 * built from its calls, with the refs its backfill would allocate (2.9.0+; earlier releases skip
 * it). Where the flush would fuse two or more summaries with an LLM call,
 * the simulation shows them joined, which is what pi-condense renders when it does not fuse.
 * Compressed chains are never uncompressed, so a larger K changes nothing already compressed.
 * From 2.3.0 a chain holding a recovery output still in its grace window is deferred, as the flush
 * defers it (`grace`: the branch and the configured grace turns).
 */
import type { ProtectionCheck } from '../condense/protection/protectionRules';
import type { ChainInfo, CondenseState } from '../condense/state/condenseState';
import { chainEntry, chainToolRefs, refsByKey } from '../chains/chainEntry';
import { deterministicChainBody } from '../chains/deterministicBody';
import { detectChainsSteps } from '../chains/detectChains';
import { isDeterministic, planChainJobsSteps } from '../chains/planChains';
import { deferInGrace, graceKeysOfBranchSteps, selectChains } from '../chains/selectChains';
import { summaryRef } from '../condense/summaryContent';
import type { ReleaseRules } from '../release/releases';
import type { ContextMessage, SessionEntry } from '../session/types';
import { type Steps } from '../steps';

export interface WindowSimulation {
	readonly state: CondenseState;
	/** Block ids given to the simulated chains. */
	readonly simulated: readonly string[];
	/** Simulated chains no summary covers: they get the deterministic body. */
	readonly uncovered: number;
}

/** The state with the chains the next flush would compress under a rolling window of K, in steps (see `src/engine/steps.ts`). */
export function* simulateWindowSteps(
	state: CondenseState,
	rawMessages: readonly ContextMessage[],
	rollingWindow: number,
	isProtected: ProtectionCheck,
	compressedAt: number,
	rules: ReleaseRules,
	grace?: { readonly branch: readonly SessionEntry[]; readonly turns: number },
): Steps<WindowSimulation> {
	const compressedStarts = new Set(state.chains.map((chain) => chain.entry.startUserTimestamp));
	const window = selectChains(yield* detectChainsSteps(rawMessages, isProtected, compressedStarts), rollingWindow, compressedStarts);
	const inGrace = rules.recoveryGrace && grace ? yield* graceKeysOfBranchSteps(grace.branch, grace.turns, state.keying) : new Set<string>();
	const selected = deferInGrace(window, inGrace, rules.occurrenceKeys);
	yield;
	const { jobs } = selected.length > 0 ? yield* planChainJobsSteps(selected, rawMessages, state, rules) : { jobs: [] };
	yield;
	if (jobs.length === 0) {
		return { state, simulated: [], uncovered: 0 };
	}
	let nextBlock = state.nextBlockNumber;
	let nextRef = state.nextRefNumber;
	let uncovered = 0;
	const added: ChainInfo[] = jobs.map((job) => {
		const deterministic = isDeterministic(job);
		uncovered += deterministic ? 1 : 0;
		const refs = job.fresh.map((record, n) => summaryRef(`t${nextRef + n}`, record.toolCallId, record.resultTimestamp));
		nextRef += refs.length;
		const backfilled = refsByKey(refs);
		const body = deterministic ? deterministicChainBody([...job.indexed, ...job.fresh], chainToolRefs(job, state, backfilled)) : undefined;
		const entry = chainEntry(job, `b${nextBlock++}`, compressedAt, body, state, backfilled);
		// The body the flush would write (or, for a fused one, what it fuses): its covering summaries.
		return { entry, bodyText: entry.rangeSummaryText ?? job.summaries.join('\n\n') };
	});
	const chains = [...state.chains, ...added].sort((a, b) => a.entry.startUserTimestamp - b.entry.startUserTimestamp);
	const blockBodies = new Map(state.blockBodies);
	added.forEach((chain) => blockBodies.has(chain.entry.blockId) || blockBodies.set(chain.entry.blockId, chain.bodyText));
	return { state: { ...state, chains, blockBodies, nextBlockNumber: nextBlock }, simulated: added.map((c) => c.entry.blockId), uncovered };
}
