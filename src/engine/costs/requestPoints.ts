/**
 * A session's requests, read from the usage Pi recorded, in file order: every entry Pi 1.6.0's
 * `getSessionStats` counts (assistant replies, tool results with usage, compactions and branch
 * summaries with usage, `usage` entries), over the whole file (other branches and compacted history
 * included), as Pi counts them. Pure.
 *
 * Read once per entry by the costs ledger (`costsLedger.ts`), so it is kept lean: every point has the
 * same shape (no optional field spread in or out), and an entry's ISO timestamp is parsed only when
 * the point needs it (an assistant message carries its own epoch ms).
 */
import type { SessionEntry, Usage } from '../session/types';
import type { RequestCost, RequestKind, RequestPoint, RequestTokens } from './requestTypes';

/** The request an entry (at `entryIndex` in the file's entries) records, if it records one: the `index`-th request. */
export function requestOf(entry: SessionEntry, index: number, entryIndex: number): RequestPoint | undefined {
	switch (entry.type) {
		case 'usage':
			return pointOf(entry, index, entryIndex, 'usage', entry.usage, entry.provider ?? '', entry.model ?? '', Date.parse(entry.timestamp), undefined, undefined, entry.kind);
		case 'compaction':
		case 'branch_summary':
			return entry.usage ? pointOf(entry, index, entryIndex, 'summary', entry.usage, '', '', Date.parse(entry.timestamp), undefined, undefined, undefined) : undefined;
		case 'message': {
			const message = entry.message;
			if (message.role === 'assistant') {
				return pointOf(entry, index, entryIndex, 'reply', message.usage, message.provider, message.model, messageTime(message.timestamp, entry), message.api, message.stopReason, undefined);
			}
			return message.role === 'toolResult' && message.usage
				? pointOf(entry, index, entryIndex, 'tool', message.usage, '', '', messageTime(message.timestamp, entry), undefined, undefined, undefined)
				: undefined;
		}
		default:
			return undefined;
	}
}

function pointOf(
	entry: SessionEntry, index: number, entryIndex: number, kind: RequestKind, usage: Usage | undefined, provider: string, model: string, at: number,
	api: string | undefined, stopReason: string | undefined, usageKind: string | undefined,
): RequestPoint {
	const raw = (usage ?? {}) as Partial<Record<keyof Usage, unknown>> & { cacheWrite1h?: unknown };
	const tokens: RequestTokens = {
		input: count(raw.input),
		output: count(raw.output),
		cacheRead: count(raw.cacheRead),
		cacheWrite: count(raw.cacheWrite),
		cacheWrite1h: typeof raw.cacheWrite1h === 'number' && Number.isFinite(raw.cacheWrite1h) ? raw.cacheWrite1h : undefined,
		totalTokens: count(raw.totalTokens),
	};
	return {
		index,
		entryIndex,
		kind,
		usageKind,
		entryId: entry.id,
		entryTimestamp: entry.timestamp,
		at,
		provider,
		model,
		api,
		stopReason,
		tokens,
		cost: costOf(raw.cost),
		contextTokens: tokens.input + tokens.cacheRead + tokens.cacheWrite,
	};
}

function costOf(value: unknown): RequestCost {
	if (typeof value !== 'object' || value === null) {
		return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 };
	}
	const cost = value as Partial<Record<keyof RequestCost, unknown>>;
	return { input: count(cost.input), output: count(cost.output), cacheRead: count(cost.cacheRead), cacheWrite: count(cost.cacheWrite), total: count(cost.total) };
}

/** A figure as written, or 0 for anything that is not a finite number (a hand-edited file). */
function count(value: unknown): number {
	return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

/** A message's own epoch ms, else its entry's time. */
function messageTime(value: unknown, entry: SessionEntry): number {
	return typeof value === 'number' && Number.isFinite(value) ? value : Date.parse(entry.timestamp);
}
