/**
 * A session's token and cost totals as Pi 1.x's `/session` counts them: over every entry of the file
 * (compacted history and other branches included), each assistant reply's usage, a tool result's usage
 * (nested model work), a compaction's or branch summary's usage, and `usage` entries (cache warming and
 * other model work outside the conversation, which never reach the context). Pure. `usageOf` names
 * every entry type (no `default:`): a new type does not compile until it says what usage it carries.
 */
import { unreachable } from '../../base/unreachable';
import type { SessionEntry, Usage } from './types';
import { paced, type Steps } from '../steps';

export interface UsageTotals {
	readonly input: number;
	readonly output: number;
	readonly cacheRead: number;
	readonly cacheWrite: number;
	/** USD. */
	readonly cost: number;
	/** How many `usage` entries took part. */
	readonly usageEntries: number;
}

export function* usageTotalsSteps(entries: readonly SessionEntry[]): Steps<UsageTotals> {
	const totals = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: 0, usageEntries: 0 };
	for (let at = 0; at < entries.length; at++) {
		if (paced(at)) {
			yield;
		}
		const usage = usageOf(entries[at] as SessionEntry);
		if (usage === undefined) {
			continue;
		}
		totals.usageEntries += (entries[at] as SessionEntry).type === 'usage' ? 1 : 0;
		totals.input += count(usage.input);
		totals.output += count(usage.output);
		totals.cacheRead += count(usage.cacheRead);
		totals.cacheWrite += count(usage.cacheWrite);
		totals.cost += count((usage.cost as Usage['cost'] | undefined)?.total);
	}
	return totals;
}

function usageOf(entry: SessionEntry): Usage | undefined {
	switch (entry.type) {
		case 'usage':
			return entry.usage;
		case 'compaction':
		case 'branch_summary':
			return entry.usage;
		case 'message': {
			const message = entry.message;
			return message.role === 'assistant' || message.role === 'toolResult' ? message.usage : undefined;
		}
		case 'model_change':
		case 'thinking_level_change':
		case 'context_edit':
		case 'custom':
		case 'custom_message':
		case 'label':
		case 'session_info':
		case 'opaque':
			return undefined;
	}
	return unreachable(entry);
}

/** A figure as written, or 0 for anything that is not a finite number (a hand-edited file). */
function count(value: unknown): number {
	return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}
