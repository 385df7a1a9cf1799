/**
 * What a flush resumed on a file a killed flush left part-written must do: what the user's
 * pi-condense release does on that same partial file, not what an uninterrupted flush of the
 * original would have written. Used by the crash-resume test and the crash stress.
 *
 * - The flush invariants hold (no ref, record, alias or chain twice; no alias of a call to itself
 *   or to a call without a record), but for what `compact`, which summarizes nothing, finds there.
 * - Nothing lost, nothing done twice: the calls covered (indexed or aliased) are exactly those an
 *   uninterrupted flush covers. A summary the kill left without its index entry is ignored, as the
 *   release ignores it: its calls are summarized again, once.
 * - Refs continue from the partial file (the release rebuilds its counter from the summaries).
 * - Stats continue from the last stats entry of the partial file: one call per summarizer call of
 *   the resumed flush, one chain per chain it wrote, and a stats entry only after the batch phase
 *   (its frontier) and after compressed chains.
 * - Chains: `compact` compresses what an uninterrupted `compact` does. A `now` compresses none an
 *   uninterrupted one keeps raw; the chains it leaves (a `now` with nothing pending stops before
 *   chain compression, as the release does) are exactly those the views count as compactable.
 */
import { buildCondenseStateSteps } from '../../src/engine/condense';
import type { ContextPruneConfig } from '../../src/engine/config/types';
import { compactableChainsSteps } from '../../src/engine/chains';
import type { FlushMode } from '../../src/engine/flush';
import type { ReleaseRules } from '../../src/engine/release/releases';
import { buildSessionContextSteps, getBranchSteps, parseSessionSteps, type SessionModel } from '../../src/engine/session';
import type { SessionEntry } from '../../src/engine/session/types';
import { runSteps } from '../../src/engine/steps';
import { CUSTOM_TYPE_CHAIN, CUSTOM_TYPE_FRONTIER, CUSTOM_TYPE_STATS, CUSTOM_TYPE_SUMMARY, type SummarizerStats } from '../../src/engine/condense/types';
import { flushInvariantViolations } from './flushInvariants';

export interface Coverage {
	/** Indexed and aliased keys, sorted. */
	readonly covered: readonly string[];
	/** Start timestamps of the compressed chains, sorted. */
	readonly chains: readonly number[];
}

export function coverageOf(model: SessionModel, rules: ReleaseRules): Coverage {
	const state = runSteps(buildCondenseStateSteps(runSteps(getBranchSteps(model)), rules));
	return {
		covered: [...state.records.keys(), ...state.aliases.keys()].sort(),
		chains: state.chains.map((chain) => chain.entry.startUserTimestamp).sort((a, b) => a - b),
	};
}

export interface ResumeCase {
	readonly mode: FlushMode;
	/** The file as the kill left it. */
	readonly partial: string;
	/** The file after the resumed flush. */
	readonly resumed: string;
	/** What an uninterrupted flush of the original covers. */
	readonly reference: Coverage;
	/** Summarizer calls the resumed flush made (batches and fusions). */
	readonly summarizerCalls: number;
	readonly config: ContextPruneConfig;
	readonly rules: ReleaseRules;
}

export interface ResumeVerdict {
	readonly violations: readonly string[];
	/** Chains the resumed `now` left for `compact` (the uninterrupted flush compressed them). */
	readonly leftChains: number;
}

export function resumeVerdict(check: ResumeCase): ResumeVerdict {
	const partial = runSteps(parseSessionSteps(check.partial));
	const resumed = runSteps(parseSessionSteps(check.resumed));
	const branch = runSteps(getBranchSteps(resumed));
	// `compact` summarizes nothing: a summary the partial file already holds without its index
	// entry (a source cut between a summary and its index, as a killed release leaves it) stays so.
	const inherited = new Set(check.mode === 'compact' ? flushInvariantViolations(runSteps(getBranchSteps(partial)), check.rules) : []);
	const violations = flushInvariantViolations(branch, check.rules).filter((violation) => !inherited.has(violation));
	const covered = coverageOf(resumed, check.rules);
	if (JSON.stringify(covered.covered) !== JSON.stringify(check.reference.covered)) {
		violations.push(`covers ${covered.covered.length} calls where an uninterrupted ${check.mode} covers ${check.reference.covered.length}`);
	}
	const before = runSteps(buildCondenseStateSteps(runSteps(getBranchSteps(partial)), check.rules));
	const written = branch.slice(runSteps(getBranchSteps(partial)).length);
	violations.push(...refViolations(written, before.nextRefNumber), ...statsViolations(written, before.stats, check.summarizerCalls));
	const reference = new Set(check.reference.chains);
	const extra = covered.chains.filter((start) => !reference.has(start));
	if (extra.length > 0) {
		violations.push(`compressed ${extra.length} chain(s) an uninterrupted ${check.mode} keeps raw (starts ${extra.join(', ')})`);
	}
	const kept = new Set(covered.chains);
	const left = check.reference.chains.filter((start) => !kept.has(start));
	if (check.mode === 'compact' && left.length > 0) {
		violations.push(`compact left ${left.length} chain(s) an uninterrupted compact compresses`);
	}
	const state = runSteps(buildCondenseStateSteps(branch, check.rules));
	const compactable = runSteps(compactableChainsSteps(branch, runSteps(buildSessionContextSteps(resumed)).messages, state, check.config, check.rules));
	if (check.mode === 'now' && compactable !== left.length) {
		violations.push(`${left.length} chain(s) left for compact, but the views would count ${compactable} as compactable`);
	}
	return { violations, leftChains: check.mode === 'now' ? left.length : 0 };
}

/** Every ref of a summary the resumed flush wrote comes from the counter the partial file sets. */
function refViolations(written: readonly SessionEntry[], nextRef: number): string[] {
	const problems: string[] = [];
	for (const entry of written) {
		if (entry.type !== 'custom_message' || entry.customType !== CUSTOM_TYPE_SUMMARY) {
			continue;
		}
		const refs = (entry.details as { toolCallRefs?: { shortId: string }[] } | undefined)?.toolCallRefs ?? [];
		for (const { shortId } of refs) {
			if (Number(shortId.slice(1)) < nextRef) {
				problems.push(`summary ref ${shortId} reuses a number below the partial file's counter (t${nextRef})`);
			}
		}
	}
	return problems;
}

/** Stats continue from the partial file's last snapshot; a snapshot only after the frontier or chains. */
function statsViolations(written: readonly SessionEntry[], base: SummarizerStats | undefined, summarizerCalls: number): string[] {
	const problems: string[] = [];
	const kinds = written.flatMap((entry) => (entry.type === 'custom' ? [entry.customType] : []));
	const expectedSnapshots = (kinds.includes(CUSTOM_TYPE_FRONTIER) ? 1 : 0) + (kinds.includes(CUSTOM_TYPE_CHAIN) ? 1 : 0);
	const snapshots = written.flatMap((entry) => (entry.type === 'custom' && entry.customType === CUSTOM_TYPE_STATS ? [entry.data as SummarizerStats] : []));
	if (snapshots.length !== expectedSnapshots) {
		problems.push(`wrote ${snapshots.length} stats entries where the release writes ${expectedSnapshots}`);
	}
	const last = snapshots.at(-1);
	if (last) {
		const calls = (base?.callCount ?? 0) + summarizerCalls;
		const chains = (base?.chainsCompressed ?? 0) + kinds.filter((kind) => kind === CUSTOM_TYPE_CHAIN).length;
		if (last.callCount !== calls || last.chainsCompressed !== chains) {
			problems.push(`stats read ${last.callCount} calls and ${last.chainsCompressed} chains where the release reads ${calls} and ${chains}`);
		}
	}
	return problems;
}
