/**
 * pi-condense's entries as the costs engine groups them: everything one flush wrote between two
 * requests (per-batch summaries and their index entries, dedup aliases, compressed chains, an eager
 * spill's index entry at the end of a turn, and the bookkeeping around them: frontier, stats,
 * diagnostics, flush metrics), read as each release writes it (docs: pi-condense-releases.md §3.14
 * for the order, §3.10 for the metrics, §3.13 for backfills). Pure.
 */
import { isPlainObject } from '../../base/plainObject';
import {
	CUSTOM_TYPE_CHAIN, CUSTOM_TYPE_DEDUP_ALIAS, CUSTOM_TYPE_DIAGNOSTIC, CUSTOM_TYPE_FLUSH_METRICS, CUSTOM_TYPE_FRONTIER, CUSTOM_TYPE_INDEX, CUSTOM_TYPE_STATS,
	CUSTOM_TYPE_SUMMARY,
} from '../condense/types';
import type { SessionEntry } from '../session/types';

/** Every customType pi-condense writes. */
const CONDENSE_TYPES: ReadonlySet<string> = new Set([
	CUSTOM_TYPE_SUMMARY, CUSTOM_TYPE_INDEX, CUSTOM_TYPE_DEDUP_ALIAS, CUSTOM_TYPE_CHAIN, CUSTOM_TYPE_FRONTIER, CUSTOM_TYPE_STATS, CUSTOM_TYPE_DIAGNOSTIC,
	CUSTOM_TYPE_FLUSH_METRICS,
]);

/** Whether pi-condense wrote this entry. */
export function isCondenseEntry(entry: SessionEntry): boolean {
	return (entry.type === 'custom' || entry.type === 'custom_message') && CONDENSE_TYPES.has(entry.customType);
}

/** What one entry adds to a flush's counts. */
export interface CondenseContribution {
	readonly summaries: number;
	readonly chains: number;
	readonly spills: number;
	readonly records: number;
	readonly aliases: number;
	/** Whether it changes what the model is sent (frontier, stats and diagnostics do not). */
	readonly effective: boolean;
	readonly trigger?: string;
	/** A `context-prune-stats` snapshot's cumulative summarizer cost. */
	readonly statsCost?: number;
}

const NOTHING: CondenseContribution = { summaries: 0, chains: 0, spills: 0, records: 0, aliases: 0, effective: false };

export function contributionOf(entry: SessionEntry): CondenseContribution {
	if (entry.type === 'custom_message') {
		return entry.customType === CUSTOM_TYPE_SUMMARY ? { ...NOTHING, summaries: 1, effective: true } : NOTHING;
	}
	if (entry.type !== 'custom') {
		return NOTHING;
	}
	const data = isPlainObject(entry.data) ? entry.data : {};
	switch (entry.customType) {
		case CUSTOM_TYPE_INDEX: {
			const calls = Array.isArray(data['toolCalls']) ? data['toolCalls'] : [];
			const spills = calls.filter((call) => isPlainObject(call) && typeof call['spillPath'] === 'string').length;
			return { ...NOTHING, records: calls.length, spills, effective: calls.length > 0 };
		}
		case CUSTOM_TYPE_CHAIN:
			return { ...NOTHING, chains: 1, effective: true };
		case CUSTOM_TYPE_DEDUP_ALIAS:
			return { ...NOTHING, aliases: 1, effective: true };
		case CUSTOM_TYPE_FLUSH_METRICS:
			return typeof data['trigger'] === 'string' ? { ...NOTHING, trigger: data['trigger'] } : NOTHING;
		case CUSTOM_TYPE_STATS:
			return typeof data['totalCost'] === 'number' && Number.isFinite(data['totalCost']) ? { ...NOTHING, statsCost: data['totalCost'] } : NOTHING;
		default:
			return NOTHING;
	}
}
