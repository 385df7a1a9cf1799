/**
 * The `context-prune-stats` snapshot a flush writes: the last snapshot on the branch, continued
 * with this flush's summarizer usage (input and output tokens, cost, one call each) and its chain
 * counters. Pure (local state).
 */
import type { SummarizerStats } from '../condense/types';

const ZERO_STATS: SummarizerStats = {
	totalInputTokens: 0, totalOutputTokens: 0, totalCost: 0, callCount: 0, chainsCompressed: 0, rangesSummarized: 0,
};

export class StatsAccumulator {
	private stats: SummarizerStats;

	constructor(base: SummarizerStats | undefined) {
		this.stats = { ...ZERO_STATS, ...base };
	}

	addCall(inputTokens: number, outputTokens: number, cost: number): void {
		const s = this.stats;
		this.stats = {
			...s,
			totalInputTokens: s.totalInputTokens + inputTokens,
			totalOutputTokens: s.totalOutputTokens + outputTokens,
			totalCost: s.totalCost + cost,
			callCount: s.callCount + 1,
		};
	}

	addChains(compressed: number, fused: number): void {
		this.stats = {
			...this.stats,
			chainsCompressed: this.stats.chainsCompressed + compressed,
			rangesSummarized: this.stats.rangesSummarized + fused,
		};
	}

	snapshot(): SummarizerStats {
		const { totalInputTokens, totalOutputTokens, totalCost, callCount, chainsCompressed, rangesSummarized } = this.stats;
		return { totalInputTokens, totalOutputTokens, totalCost, callCount, chainsCompressed, rangesSummarized };
	}
}
