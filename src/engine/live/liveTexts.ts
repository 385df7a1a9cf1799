/**
 * How a live Pi is put into words in the views: its own figure of the context for the status bar,
 * one line for tooltips, and the "Last sent" summary the preview page shows. Everything a bridge
 * says is data (a Pi version, a model id): these are plain texts, made safe where they are shown.
 * Pure.
 */
import { formatCompactCount } from '../../base/numberFormat';
import type { LastUsageView } from './lastUsage';
import type { BridgeState, SentDigest } from './liveTypes';
import { comparisonSummary, type SentComparison } from './sentComparison';

/** Pi's own figure: `14.2k/200k`, or `?/200k` right after a compaction; undefined without one. */
export function liveFigure(state: BridgeState): string | undefined {
	const usage = state.usage;
	if (!usage) {
		return undefined;
	}
	return `${usage.tokens === null ? '?' : formatCompactCount(usage.tokens)}/${formatCompactCount(usage.contextWindow)}`;
}

/** `Live in Pi 1.6.0 (pid 4242, tui, busy) · context 14.2k/200k (7%), Pi's own figure`. */
export function liveLine(state: BridgeState): string {
	const figure = liveFigure(state);
	const percent = state.usage?.percent;
	const context = figure === undefined ? '' : ` · context ${figure}${percent === null || percent === undefined ? '' : ` (${Math.round(percent)}%)`}, Pi's own figure`;
	return `Live in Pi ${state.piVersion} (pid ${state.pid}, ${state.mode}, ${state.busy ? 'busy' : 'idle'})${context}`;
}

/** What the preview page shows of the last request (types shared with the page through the protocol). */
export interface LastSentView {
	readonly pid: number;
	readonly seq: number;
	readonly at: number;
	readonly pi: string;
	readonly model: string | undefined;
	readonly messages: number;
	readonly systemChars: number | undefined;
	readonly payloadChars: number | undefined;
	readonly comparison: 'match' | 'differs' | 'not-comparable' | 'pending';
	/** The comparison in one line: "matches the last request", or what differs, or why it was not compared. */
	readonly summary: string;
	readonly differences: readonly string[];
	/** A problem of the load order, said apart (the fix is Connect again). */
	readonly orderWarning: string | undefined;
	/** The pi-condense Pi loads is not the release the preview follows. */
	readonly releaseWarning: string | undefined;
	/** The usage Pi recorded for its last reply and the cache's countdown; undefined before the session shows any. */
	readonly usage: LastUsageView | undefined;
	/** The request before this one, kept for the session: Compare with Previous Request compares them. */
	readonly previousSeq: number | undefined;
}

/**
 * `comparison` undefined: the prediction is not ready (Pi's lines for that point are not in the file
 * yet). `followed`: the pi-condense release the preview renders as, when it follows one.
 */
export function lastSentView(
	state: BridgeState, sent: SentDigest, comparison: SentComparison | undefined, followed?: string, usage?: LastUsageView, previousSeq?: number,
): LastSentView {
	const loaded = state.piCondense?.version;
	const model = sent.model ?? state.model;
	return {
		pid: state.pid, seq: sent.seq, at: sent.at, pi: `Pi ${state.piVersion} (pid ${state.pid})`,
		model: model && `${model.provider}/${model.id}`,
		messages: sent.messages.length, systemChars: sent.system?.chars, payloadChars: sent.payload?.chars,
		comparison: comparison?.kind ?? 'pending',
		summary: comparison ? comparisonSummary(comparison) : 'waiting for Pi to write this point of the session to its file',
		differences: comparison?.kind === 'differs' ? comparison.differences : [],
		orderWarning: state.order === 'before-pi-condense'
			? 'The bridge loads before pi-condense in this Pi: run "Pi Condense: Connect Pi to VS Code" again, then restart Pi.' : undefined,
		releaseWarning: loaded !== undefined && followed !== undefined && loaded !== followed
			? `Pi loads pi-condense ${loaded}; the preview follows ${followed} (set piCondense.release, or check Pi's settings).` : undefined,
		usage,
		previousSeq,
	};
}
