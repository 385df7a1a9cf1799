/**
 * A session's requests, read from the usage Pi recorded, in file order: every entry Pi 1.6.0's
 * `getSessionStats` counts (assistant replies, tool results with usage, compactions and branch
 * summaries with usage, `usage` entries), over the whole file (other branches and compacted history
 * included), as Pi counts them. Pure.
 */
import type { SessionEntry, Usage } from '../session/types';
import { paced, type Steps } from '../steps';
import type { RequestKind, RequestPoint } from './requestTypes';

export function* requestPointsSteps(entries: readonly SessionEntry[]): Steps<RequestPoint[]> {
	const points: RequestPoint[] = [];
	for (let at = 0; at < entries.length; at++) {
		if (paced(at)) {
			yield;
		}
		const point = requestOf(entries[at] as SessionEntry, points.length);
		if (point !== undefined) {
			points.push(point);
		}
	}
	return points;
}

/** The request an entry records, if it records one. */
export function requestOf(entry: SessionEntry, index: number): RequestPoint | undefined {
	const entryAt = Date.parse(entry.timestamp);
	switch (entry.type) {
		case 'usage':
			return pointOf(entry, index, 'usage', entry.usage, { provider: entry.provider ?? '', model: entry.model ?? '', at: entryAt, usageKind: entry.kind });
		case 'compaction':
		case 'branch_summary':
			return entry.usage ? pointOf(entry, index, 'summary', entry.usage, { provider: '', model: '', at: entryAt }) : undefined;
		case 'message': {
			const message = entry.message;
			if (message.role === 'assistant') {
				return pointOf(entry, index, 'reply', message.usage, {
					provider: message.provider,
					model: message.model,
					at: finiteOr(message.timestamp, entryAt),
					api: message.api,
					stopReason: message.stopReason,
				});
			}
			return message.role === 'toolResult' && message.usage ? pointOf(entry, index, 'tool', message.usage, { provider: '', model: '', at: finiteOr(message.timestamp, entryAt) }) : undefined;
		}
		default:
			return undefined;
	}
}

interface PointFacts {
	readonly provider: string;
	readonly model: string;
	readonly at: number;
	readonly api?: string;
	readonly stopReason?: string;
	readonly usageKind?: string;
}

function pointOf(entry: SessionEntry, index: number, kind: RequestKind, usage: Usage | undefined, facts: PointFacts): RequestPoint {
	const raw = (usage ?? {}) as Partial<Record<keyof Usage, unknown>> & { cacheWrite1h?: unknown };
	const cost = (typeof raw.cost === 'object' && raw.cost !== null ? raw.cost : {}) as Partial<Record<string, unknown>>;
	const tokens = {
		input: count(raw.input),
		output: count(raw.output),
		cacheRead: count(raw.cacheRead),
		cacheWrite: count(raw.cacheWrite),
		cacheWrite1h: typeof raw.cacheWrite1h === 'number' && Number.isFinite(raw.cacheWrite1h) ? raw.cacheWrite1h : undefined,
		totalTokens: count(raw.totalTokens),
	};
	return {
		index,
		kind,
		...(facts.usageKind === undefined ? {} : { usageKind: facts.usageKind }),
		entryId: entry.id,
		entryTimestamp: entry.timestamp,
		at: facts.at,
		provider: facts.provider,
		model: facts.model,
		...(facts.api === undefined ? {} : { api: facts.api }),
		...(facts.stopReason === undefined ? {} : { stopReason: facts.stopReason }),
		tokens,
		cost: { input: count(cost['input']), output: count(cost['output']), cacheRead: count(cost['cacheRead']), cacheWrite: count(cost['cacheWrite']), total: count(cost['total']) },
		contextTokens: tokens.input + tokens.cacheRead + tokens.cacheWrite,
	};
}

/** A figure as written, or 0 for anything that is not a finite number (a hand-edited file). */
function count(value: unknown): number {
	return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

function finiteOr(value: unknown, fallback: number): number {
	return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}
