/**
 * What-if for the rolling window: the chains the next flush would compress if the window were K,
 * added to the state as they would be rendered. Pure; the input state is not changed.
 *
 * Following pi-condense: the candidates are the closed chains with a non-empty middle that are not
 * compressed yet; all but the newest K are compressed; a chain that no per-batch summary covers is
 * skipped (2.0.0's `no-summary`). pi-condense would fuse two or more summaries with an LLM call;
 * the simulation shows the distinct covering summaries joined, which is what pi-condense renders
 * when it does not fuse. Compressed chains are never uncompressed, so a larger K changes nothing
 * that is already compressed.
 */
import type { ProtectionCheck } from '../condense/protection/protectionRules';
import { chainBodyText, summaryCoverage } from '../condense/state/chainBodies';
import { isRecordOccurrence, type ChainInfo, type CondenseState } from '../condense/state/condenseState';
import type { ChainCompressionEntry } from '../condense/types';
import type { AgentMessage } from '../session/types';
import { detectChains, type DetectedChain } from './detectChains';

export interface WindowSimulation {
	readonly state: CondenseState;
	/** Block ids given to the simulated chains. */
	readonly simulated: readonly string[];
	/** Chains the window would select that no summary covers yet. */
	readonly uncovered: number;
}

export function simulateWindow(
	state: CondenseState,
	rawMessages: readonly AgentMessage[],
	rollingWindow: number,
	isProtected: ProtectionCheck,
	compressedAt: number,
): WindowSimulation {
	const compressedStarts = new Set(state.chains.map((chain) => chain.entry.startUserTimestamp));
	const candidates = detectChains(rawMessages).filter((chain) =>
		chain.finalAssistantTimestamp !== null && chain.middleToolCallIds.length > 0 && !compressedStarts.has(chain.startUserTimestamp));
	const selected = candidates.slice(0, Math.max(0, candidates.length - rollingWindow));
	const added: ChainInfo[] = [];
	const coverage = selected.length > 0 ? summaryCoverage(state.summaries) : undefined;
	let uncovered = 0;
	let nextBlock = state.nextBlockNumber;
	for (const chain of selected) {
		const entry = chainEntry(chain, state, `b${nextBlock}`, isProtected, compressedAt);
		const droppedKeys = new Set(chain.middleResultKeys);
		const bodyText = chainBodyText({ entry, droppedKeys }, state.summaries, coverage);
		if (bodyText === '') {
			uncovered++;
			continue;
		}
		nextBlock++;
		added.push({ entry, droppedKeys, bodyText });
	}
	if (added.length === 0) {
		return { state, simulated: [], uncovered };
	}
	const chains = [...state.chains, ...added].sort((a, b) => a.entry.startUserTimestamp - b.entry.startUserTimestamp);
	return { state: { ...state, chains, nextBlockNumber: nextBlock }, simulated: added.map((c) => c.entry.blockId), uncovered };
}

function chainEntry(chain: DetectedChain, state: CondenseState, blockId: string, isProtected: ProtectionCheck, compressedAt: number): ChainCompressionEntry {
	const keys = new Set(chain.middleResultKeys);
	const toolRefs: string[] = [];
	for (const id of chain.middleToolCallIds) {
		const occurrences = (state.byToolCallId.get(id) ?? []).filter(isRecordOccurrence);
		const ref = (occurrences.find((o) => keys.has(o.key)) ?? occurrences.find((o) => o.shortRef !== undefined))?.shortRef;
		if (ref !== undefined && !toolRefs.includes(ref)) {
			toolRefs.push(ref);
		}
	}
	const protectedIds = chain.middleToolCallIds.filter((id) => {
		const call = chain.calls.get(id);
		return call !== undefined && isProtected(call.name, call.args);
	});
	return {
		blockId,
		startUserTimestamp: chain.startUserTimestamp,
		droppedToolCallIds: chain.middleToolCallIds,
		...(protectedIds.length > 0 ? { protectedToolCallIds: protectedIds } : {}),
		finalAssistantTimestamp: chain.finalAssistantTimestamp,
		toolRefs,
		compressedAt,
	};
}
