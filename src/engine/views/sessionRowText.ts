/**
 * The words of one "Pi Sessions" row: its description (`2h · 12 msgs · -85%`; in words for a screen
 * reader, `2 hours ago · 12 msgs · -85%`; `live · 12 msgs · -85%` while a Pi holds it) and its tooltip
 * lines. A reclaim figure says what it is conditional on in the row's pruning state (`-85% if on`,
 * `-85% if installed`), in the words the status bar and the preview use for that state; a figure
 * that rounds to 0% is not shown. Pure.
 */
import type { LiveReclaim } from '../condense';
import { measureLine, reclaimMeasures } from './reclaimFigures';
import { formatBytes } from '../../base/numberFormat';
import type { SessionSummary } from '../session/summary';
import { reclaimCondition, type PruneState } from './pruneState';
import { compactAge, relativeTime } from '../../base/relativeTime';

export type RowReclaim =
	/** Context size with pruning on (`JSON.stringify` length) before and after pi-condense's render. */
	| ({ readonly kind: 'measured' } & LiveReclaim)
	/** The render changes nothing. */
	| { readonly kind: 'none' }
	/** Not measured in the background: the file is larger than the cap (select it to measure). */
	| { readonly kind: 'too-large'; readonly size: number }
	| { readonly kind: 'failed'; readonly message: string };

/** What the row text reads of a listed session. */
export interface RowFacts {
	readonly path: string;
	readonly size: number;
	readonly summary: SessionSummary | undefined;
	readonly reclaim: RowReclaim | undefined;
	/** Epoch ms of the last activity (Pi's "modified", else the file's mtime). */
	readonly modified: number;
	/** Its project's pruning state; undefined until its release is known. */
	readonly state: PruneState | undefined;
}

/** `-85%` (pi-condense's figure, as its footer writes it), or undefined when there is none or it rounds to 0%. */
export function reclaimPercent(reclaim: RowReclaim | undefined): string | undefined {
	if (reclaim?.kind !== 'measured') {
		return undefined;
	}
	const percent = reclaimMeasures(reclaim)[0].percent;
	return percent === 0 ? undefined : `-${percent}%`;
}

/**
 * The row's description, led by its age in a few letters (`compact`, the row), in words (`words`, for a
 * screen reader), or by `live` while a Pi holds the session (its age is then "now", and says less).
 */
export function rowDescription(row: RowFacts, now: number, lead: 'compact' | 'words' | 'live'): string {
	const parts = [lead === 'live' ? 'live' : lead === 'compact' ? compactAge(row.modified, now) : relativeTime(row.modified, now)];
	if (row.summary) {
		parts.push(`${row.summary.messageCount} msg${row.summary.messageCount === 1 ? '' : 's'}`);
	}
	const percent = reclaimPercent(row.reclaim);
	if (percent && row.state) {
		parts.push(`${percent}${reclaimCondition(row.state)}`);
	}
	return parts.join(' · ');
}

export function rowDetails(row: RowFacts): string[] {
	const summary = row.summary;
	const lines = [row.path, `Last activity: ${new Date(row.modified).toLocaleString()}`];
	if (summary) {
		lines.push(`${summary.messageCount} messages in the file (as Pi's session list counts them, every branch), ${summary.entryCount} entries, ${formatBytes(row.size)}`);
		if (summary.invalidLineCount > 0) {
			lines.push(`${summary.invalidLineCount} unreadable line(s): Pi skips them`);
		}
	}
	const reclaim = row.reclaim;
	if (reclaim?.kind === 'measured' && row.state) {
		lines.push(reclaimLine(reclaim, row.state));
	} else if (reclaim?.kind === 'too-large') {
		lines.push(`Reclaim not measured in the background (${formatBytes(reclaim.size)}): select the session to measure it`);
	} else if (reclaim?.kind === 'failed') {
		lines.push(`Reclaim could not be measured: ${reclaim.message}`);
	}
	return lines;
}

function reclaimLine(reclaim: Extract<RowReclaim, { kind: 'measured' }>, state: PruneState): string {
	const measures = reclaimMeasures(reclaim).map(measureLine).join('; ');
	switch (state) {
		case 'on':
			return `Sent with pi-condense's entries: ${measures}`;
		case 'off':
			return `Pruning is off: the model gets the whole context. With pruning on: ${measures}`;
		case 'not-installed':
			return `Pi has no pi-condense: the model gets the whole context. With pi-condense: ${measures}`;
	}
}
