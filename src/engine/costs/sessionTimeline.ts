/**
 * A session's timeline: one point per request Pi recorded (`requestPoints.ts`), Pi's totals over
 * them, and what happened between them (`markerTypes.ts`): pi-condense's flushes, Pi's compactions,
 * model changes, branch switches, resumes and idle gaps longer than the cache lifetime. One pass
 * over the file's entries in file order; cheap enough for a panel's first paint. Pure.
 *
 * @example
 * const timeline = runSteps(sessionTimelineSteps(model.entries));
 * timeline.sums.cost // 30.33 for test/fixtures/real-sessions/large-session.jsonl
 */
import type { SessionEntry } from '../session/types';
import { paced, type Steps } from '../steps';
import { cacheLifetimeOf, type CacheLifetime } from './cacheLifetimes';
import type { PruneMarker, TimelineMarker } from './markerTypes';
import { contributionOf, isCondenseEntry } from './pruneEntries';
import { requestOf } from './requestPoints';
import { addRequest, EMPTY_SUMS, type RequestPoint, type UsageSums } from './requestTypes';

export interface SessionTimeline {
	/** Every request, in file order. */
	readonly requests: readonly RequestPoint[];
	/** In file order; each says which request follows it. */
	readonly markers: readonly TimelineMarker[];
	/** The lifetime of the cache entry each request wrote or refreshed (by request index). */
	readonly lifetimes: readonly CacheLifetime[];
	/** Pi 1.6.0's totals: every request of the file. */
	readonly sums: UsageSums;
}

/** `provider/model` of a request. */
export const modelKeyOf = (request: Pick<RequestPoint, 'provider' | 'model'>): string => `${request.provider}/${request.model}`;

/**
 * The markers after request `after` up to and including those just before request `upTo`
 * (`after < beforeRequest <= upTo`): what happened between two requests. Markers are in file order,
 * so their `beforeRequest` never decreases: found by binary search.
 */
export function markersBetween(markers: readonly TimelineMarker[], after: number, upTo: number): readonly TimelineMarker[] {
	let low = 0;
	let high = markers.length;
	while (low < high) {
		const middle = (low + high) >>> 1;
		if ((markers[middle] as TimelineMarker).beforeRequest <= after) {
			low = middle + 1;
		} else {
			high = middle;
		}
	}
	let end = low;
	while (end < markers.length && (markers[end] as TimelineMarker).beforeRequest <= upTo) {
		end++;
	}
	return markers.slice(low, end);
}

export function* sessionTimelineSteps(entries: readonly SessionEntry[]): Steps<SessionTimeline> {
	const pass = new TimelinePass();
	for (let at = 0; at < entries.length; at++) {
		if (paced(at)) {
			yield;
		}
		pass.read(entries[at] as SessionEntry);
	}
	return pass.finish();
}

interface OpenFlush {
	readonly first: SessionEntry;
	readonly entryIds: string[];
	summaries: number;
	chains: number;
	spills: number;
	records: number;
	aliases: number;
	effective: boolean;
	trigger: string | undefined;
	costBefore: number;
	costAfter: number;
}

/** The state of the one pass; `read` takes each entry in file order. */
class TimelinePass {
	private readonly requests: RequestPoint[] = [];
	private readonly markers: TimelineMarker[] = [];
	private readonly lifetimes: CacheLifetime[] = [];
	private sums = EMPTY_SUMS;
	private previousEntryId: string | undefined;
	private lastReply: RequestPoint | undefined;
	/** The last request that used the cache (a reply or a cache warm-up), and its lifetime. */
	private lastTouch: { readonly at: number; readonly lifetime: CacheLifetime } | undefined;
	private readonly lifetimeByModel = new Map<string, CacheLifetime>();
	private flush: OpenFlush | undefined;
	private statsCost = 0;
	private thinkingLevel: string | undefined;
	private selectedModel: string | undefined;

	read(entry: SessionEntry): void {
		this.noteBranchSwitch(entry);
		if (entry.type === 'compaction') {
			// Also a request when Pi recorded what writing its summary cost.
			this.markers.push({ kind: 'compaction', ...this.base(entry), tokensBefore: entry.tokensBefore, fromHook: entry.fromHook === true });
		}
		const request = requestOf(entry, this.requests.length);
		if (request !== undefined) {
			// A flush at message_end sits before the reply in the file but was written after the request
			// was sent (its entries are newer than the reply's own timestamp): it counts from the next request.
			const late = request.kind === 'reply' && this.flush !== undefined && Date.parse(this.flush.first.timestamp) > request.at;
			const flush = late ? this.flush : undefined;
			if (!late) {
				this.closeFlush();
			}
			this.flush = undefined;
			this.addRequest(request);
			if (flush !== undefined) {
				this.flush = flush;
				this.closeFlush();
			}
		} else if (isCondenseEntry(entry)) {
			this.addToFlush(entry);
		} else {
			this.noteOther(entry);
		}
		this.previousEntryId = entry.id;
	}

	finish(): SessionTimeline {
		this.closeFlush();
		return { requests: this.requests, markers: this.markers, lifetimes: this.lifetimes, sums: this.sums };
	}

	private base(entry: SessionEntry, at = Date.parse(entry.timestamp)): { at: number; entryId: string; beforeRequest: number } {
		return { at, entryId: entry.id, beforeRequest: this.requests.length };
	}

	private noteBranchSwitch(entry: SessionEntry): void {
		if (this.previousEntryId !== undefined && entry.parentId !== this.previousEntryId) {
			this.markers.push({ kind: 'branch-switch', ...this.base(entry), fromEntryId: entry.parentId });
		}
	}

	private addRequest(request: RequestPoint): void {
		this.requests.push(request);
		this.sums = addRequest(this.sums, request);
		const key = modelKeyOf(request);
		const lifetime = cacheLifetimeOf(request, this.lifetimeByModel.get(key));
		this.lifetimes.push(lifetime);
		if (request.kind === 'reply') {
			this.markBeforeReply(request, key);
			this.lastReply = request;
			this.selectedModel = key;
		}
		if (request.kind === 'reply' || request.usageKind === 'cache_warm') {
			this.lifetimeByModel.set(key, lifetime);
			this.lastTouch = { at: request.at, lifetime };
		}
	}

	/** A model change or an idle gap before a reply is marked just before it. */
	private markBeforeReply(request: RequestPoint, key: string): void {
		const at = { at: request.at, entryId: request.entryId, beforeRequest: request.index };
		if (this.lastReply !== undefined && modelKeyOf(this.lastReply) !== key) {
			this.markers.push({ kind: 'model-change', ...at, from: modelKeyOf(this.lastReply), to: key });
		}
		const touch = this.lastTouch;
		if (touch !== undefined) {
			const gapMs = request.at - touch.at;
			if (gapMs > touch.lifetime.likelyMs) {
				this.markers.push({ kind: 'idle-gap', ...at, gapMs, lifetime: touch.lifetime, certainty: gapMs > touch.lifetime.surelyMs ? 'expired' : 'may-have-expired' });
			}
		}
	}

	private addToFlush(entry: SessionEntry): void {
		const part = contributionOf(entry);
		const flush = this.flush ?? (this.flush = {
			first: entry, entryIds: [], summaries: 0, chains: 0, spills: 0, records: 0, aliases: 0, effective: false, trigger: undefined, costBefore: this.statsCost, costAfter: this.statsCost,
		});
		flush.entryIds.push(entry.id);
		flush.summaries += part.summaries;
		flush.chains += part.chains;
		flush.spills += part.spills;
		flush.records += part.records;
		flush.aliases += part.aliases;
		flush.effective ||= part.effective;
		if (part.trigger !== undefined) {
			flush.trigger = part.trigger;
			if (part.trigger === 'rearmed') {
				this.markers.push({ kind: 'resume', ...this.base(entry), evidence: 'rearmed' });
			}
		}
		if (part.statsCost !== undefined) {
			flush.costAfter = part.statsCost;
			this.statsCost = part.statsCost;
		}
	}

	private closeFlush(): void {
		const flush = this.flush;
		this.flush = undefined;
		if (flush === undefined || !flush.effective) {
			return;
		}
		const marker: PruneMarker = {
			kind: 'prune',
			...this.base(flush.first),
			summaries: flush.summaries,
			chains: flush.chains,
			spills: flush.spills,
			records: flush.records,
			aliases: flush.aliases,
			trigger: flush.trigger,
			entryIds: flush.entryIds,
			summarizerCost: Math.max(0, flush.costAfter - flush.costBefore),
		};
		this.markers.push(marker);
	}

	private noteOther(entry: SessionEntry): void {
		switch (entry.type) {
			case 'thinking_level_change':
				if (this.lastReply !== undefined && entry.thinkingLevel === this.thinkingLevel) {
					this.markers.push({ kind: 'resume', ...this.base(entry), evidence: 'restated-settings' });
				}
				this.thinkingLevel = entry.thinkingLevel;
				return;
			case 'model_change': {
				const key = `${entry.provider}/${entry.modelId}`;
				if (this.lastReply !== undefined && key === this.selectedModel) {
					this.markers.push({ kind: 'resume', ...this.base(entry), evidence: 'restated-settings' });
				}
				this.selectedModel = key;
				return;
			}
			default:
				return;
		}
	}
}
