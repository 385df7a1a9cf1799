/**
 * A session's costs as text, for the command line and the Costs panel alike: dollars, ranges, the
 * summary's lines, each prune's account and what each timeline marker says. Pure formatting.
 */
import { formatCompactCount } from '../../base/numberFormat';
import type { CacheState } from './cacheState';
import type { TimelineMarker } from './markerTypes';
import { verdictText, type PruneAccount, type Range } from './pruneAccount';
import type { CostSummary } from './sessionSummary';
import type { SettingsComparison } from './historySettings';

/** `$30.33`, `$0.041`, `$0.0004`, `-$1.20`. */
export function usd(amount: number): string {
	const size = Math.abs(amount);
	const digits = size >= 1 || size === 0 ? 2 : size >= 0.01 ? 3 : 4;
	return `${amount < 0 ? '-' : ''}$${size.toFixed(digits)}`;
}

/** A range as `$1.10` when its ends print alike, else `$1.10 to $1.90`. */
export function usdRange(range: Range): string {
	const low = usd(range.low);
	const high = usd(range.high);
	return low === high ? low : `${low} to ${high}`;
}

const count = (n: number): string => Math.round(n).toLocaleString('en-US');
const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

export function summaryLines(summary: CostSummary): string[] {
	const { spend, tokens, rebuilds, pruning } = summary;
	const causes = Object.entries(rebuilds.byCause).map(([cause, n]) => `${n} ${CAUSE_TEXT[cause] ?? cause}`).join(', ');
	const lines = [
		`Requests: ${count(summary.requests)} (${count(summary.replies)} in the conversation)${summary.models.length > 0 ? ` · ${summary.models.join(', ')}` : ''}`,
		`Spend: ${usd(spend.total)} (input ${usd(spend.input)} · cache read ${usd(spend.cacheRead)} · cache write ${usd(spend.cacheWrite)} · output ${usd(spend.output)})`,
		`Tokens: input ${count(tokens.input)} · cache read ${count(tokens.cacheRead)} · cache write ${count(tokens.cacheWrite)} · output ${count(tokens.output)}`,
		`Cache hit rate: ${(summary.cacheHitRate * 100).toFixed(1)}% of prompt tokens read from the cache`,
		`Cache rebuilds: ${rebuilds.count === 0 ? 'none' : `${rebuilds.count} (${formatCompactCount(rebuilds.tokens)} tokens paid again, ${usd(rebuilds.cost)}${causes ? `; ${causes}` : ''})`}`,
	];
	if (pruning === undefined || pruning.prunes === 0) {
		lines.push('Pruning: no prune in this session');
		return lines;
	}
	const { calibration } = pruning;
	const outcome = [`${pruning.paidBack} paid back`, `${pruning.notPaidBack} not paid back`, `${pruning.free} free`, ...(pruning.notMeasured > 0 ? [`${pruning.notMeasured} not measured`] : [])].join(', ');
	lines.push(`Pruning: ${plural(pruning.prunes, 'prune')} (${outcome}); net ${netText(pruning.net)}`);
	lines.push(`  costs ${usdRange(pruning.cacheCost)} of cache re-writes${pruning.summarizerCost > 0 ? ` and ${usd(pruning.summarizerCost)} of summarizer calls` : ''}; saved ${usdRange(pruning.savings)}`);
	lines.push(`  ${calibrationText(calibration)}`);
	return lines;
}

export function netText(net: Range): string {
	if (net.low >= 0) {
		return `saved ${usdRange(net)}`;
	}
	if (net.high <= 0) {
		return `cost ${usdRange({ low: -net.high, mid: -net.mid, high: -net.low })}`;
	}
	return `between ${usd(net.low)} and ${usd(net.high)} (too close to call)`;
}

function calibrationText(calibration: NonNullable<CostSummary['pruning']>['calibration']): string {
	switch (calibration.from) {
		case 'growth':
			return `calibration: 1 estimated token = ${calibration.factor.toFixed(2)} recorded tokens (${calibration.low.toFixed(2)}–${calibration.high.toFixed(2)}, from ${calibration.samples} request pairs)`;
		case 'whole-prompts':
			return `calibration: 1 estimated token = ${calibration.factor.toFixed(2)} recorded tokens (${calibration.low.toFixed(2)}–${calibration.high.toFixed(2)}, from ${plural(calibration.samples, 'whole prompt')}: few request pairs)`;
		case 'none':
			return 'calibration: none (no request recorded its prompt tokens): estimates taken as tokens';
	}
}

const CAUSE_TEXT: Readonly<Record<string, string>> = {
	'expired': 'after an idle gap',
	'model-change': 'after a model change',
	'prune': 'after a prune',
	'branch-switch': 'after a branch switch',
	'unexplained': 'unexplained',
};

/** What a prune wrote: `2 summaries, 1 chain`. */
export function pruneWhat(prune: PruneAccount['prune']): string {
	return [
		...(prune.summaries > 0 ? [plural(prune.summaries, 'summary').replace('summarys', 'summaries')] : []),
		...(prune.chains > 0 ? [plural(prune.chains, 'chain')] : []),
		...(prune.spills > 0 ? [plural(prune.spills, 'spill')] : []),
		...(prune.aliases > 0 ? [plural(prune.aliases, 'duplicate')] : []),
	].join(', ') || plural(prune.records, 'record');
}

export function accountLines(accounts: readonly PruneAccount[]): string[] {
	return accounts.map((account, i) => {
		const { prune } = account;
		const what = pruneWhat(prune);
		if (account.firstRequest === undefined) {
			return `  prune ${i + 1} (${what}): ${verdictText(account.verdict)}`;
		}
		const removed = account.removedTokens;
		const parts = [
			`removed ~${formatCompactCount(Math.round(removed.mid))} tokens`,
			account.cold === undefined ? `re-wrote ~${formatCompactCount(Math.round(account.rewrittenTokens.mid))} (${usdRange(account.cacheCost)})` : 'no re-write',
			...(account.summarizerCost > 0 ? [`summarizer ${usd(account.summarizerCost)}`] : []),
			`saved ${usdRange(account.savings)}`,
			`net ${usdRange(account.net)}`,
		];
		return `  prune ${i + 1} before request ${account.firstRequest + 1} (${what}): ${parts.join(' · ')}: ${verdictText(account.verdict)}`;
	});
}

export function markerText(marker: TimelineMarker): string {
	switch (marker.kind) {
		case 'prune':
			return `prune: ${[plural(marker.summaries, 'summary').replace('summarys', 'summaries'), plural(marker.chains, 'chain'), plural(marker.spills, 'spill')].join(', ')}${marker.trigger ? ` (${marker.trigger})` : ''}`;
		case 'compaction':
			return `Pi compaction (${formatCompactCount(marker.tokensBefore)} tokens before)`;
		case 'model-change':
			return `model: ${marker.from} → ${marker.to}`;
		case 'branch-switch':
			return `branch switch (continues from ${marker.fromEntryId ?? 'a new root'})`;
		case 'resume':
			return `resumed (${marker.evidence === 'rearmed' ? 'pi-condense rearmed after reload' : 'Pi restated its settings'})`;
		case 'idle-gap':
			return `idle ${Math.round(marker.gapMs / 60_000)} min: cache ${marker.certainty === 'expired' ? 'expired' : 'may have expired'} (${marker.lifetime.rule})`;
	}
}

/**
 * What pruning now does to the provider's cache, in a line: "cache warm for 3 more minutes (until
 * 14:32): pruning now re-writes ~180k tokens (~$0.54)", or "cache expired: pruning now costs no extra
 * cache write"; '' when the session shows no cached prompt. `rewriteTokens` undefined: nothing pending
 * (or not known), the warm line says only how long. `clock` formats a moment (the caller's time zone).
 */
export function pruneNowCacheText(state: CacheState, rewriteTokens: number | undefined, now: number, clock: (at: number) => string): string {
	switch (state.kind) {
		case 'unknown':
			return '';
		case 'expired':
			return 'cache expired: pruning now costs no extra cache write';
		case 'warm': {
			const minutes = Math.floor(state.remainingMs / 60_000);
			const left = minutes < 1 ? 'for less than a minute' : `for ${plural(minutes, 'more minute')}`;
			const warm = `cache warm ${left} (until ${clock(now + state.remainingMs)})`;
			if (rewriteTokens === undefined) {
				return warm;
			}
			const cost = rewriteTokens * state.rewritePerToken;
			return `${warm}: pruning now re-writes ~${formatCompactCount(Math.round(rewriteTokens))} tokens${cost > 0 ? ` (~${usd(cost)})` : ''}`;
		}
	}
}

/** `trigger: best: budget — budget: $0.10 per prune (4 sessions); …`, or why it cannot tell. */
export function settingText(comparison: SettingsComparison): string {
	const groups = comparison.groups.map((group) => `${group.value}: ${usdRange(group.netPerPrune)} per prune (${group.sessions} sessions)`).join('; ');
	const verdict = comparison.verdict.kind === 'best' ? `best: ${comparison.verdict.value}` : comparison.verdict.kind === 'no-clear-difference' ? 'no clear difference' : `too little data to tell (${comparison.verdict.reason})`;
	return `${comparison.setting}: ${verdict}${groups ? ` — ${groups}` : ''}`;
}
