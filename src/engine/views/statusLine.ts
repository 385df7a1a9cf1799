/**
 * The status-bar text for the selected session, in pi-condense's own words (its footer states):
 * `prune: OFF`, `prune: summarizing…` while a flush runs, `prune: N pending` while batches wait,
 * else `prune: ON` with the live reclaim and the segments the release adds (` · diag …` from 2.6.0,
 * ` · think … · gap … · chain …%` from 2.7.0). Pi without pi-condense shows no footer at all; we say
 * `prune: not installed` so the item is not mistaken for pruning switched off. Pure.
 */
import { pendingStatusText, pruneStatusText, SUMMARIZING_STATUS_TEXT } from '../condense';
import type { ContextPruneConfig } from '../config/types';
import { diagnosticCounts, withFooterSegments } from '../metrics';
import type { PreparedInsight } from './sessionInsight';

const NOT_INSTALLED_STATUS_TEXT = 'prune: not installed';

export function statusLineText(config: ContextPruneConfig, insight: PreparedInsight | undefined, summarizing: boolean, installed = true): string {
	if (!installed) {
		return NOT_INSTALLED_STATUS_TEXT;
	}
	if (!config.enabled) {
		return pruneStatusText(config);
	}
	if (summarizing) {
		return SUMMARIZING_STATUS_TEXT;
	}
	if (!insight) {
		return pruneStatusText(config);
	}
	if (insight.pending.length > 0) {
		return pendingStatusText(insight.pending.length);
	}
	// The diag counters are what the release counts once it has rendered this branch since loading it.
	const preview = insight.preview;
	return withFooterSegments(preview.statusText, insight.rules, diagnosticCounts(preview.diagnostics), insight.metrics);
}
