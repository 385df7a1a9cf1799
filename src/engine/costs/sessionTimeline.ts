/**
 * A session's timeline: one point per request Pi recorded (`requestPoints.ts`), Pi's totals over
 * them, what happened between them (`markerTypes.ts`: pi-condense's flushes, Pi's compactions, model
 * changes, branch switches, resumes and idle gaps longer than the cache lifetime) and the cache
 * rebuilds (`cacheRebuilds.ts`). One pass over the file's entries in file order, which the costs
 * ledger (`costsLedger.ts`) continues as the session grows. Pure.
 *
 * The pass itself is `TimelinePass`; `sessionTimelineSteps` (in `costsLedger.ts`) runs it over a
 * whole session.
 */
import type { SessionEntry } from '../session/types';
import { cacheFamilyOf, cacheLifetimeOf, type CacheFamily, type CacheLifetime } from './cacheLifetimes';
import { RebuildTracker, type FoundRebuild } from './cacheRebuilds';
import type { PruneMarker, TimelineMarker } from './markerTypes';
import { contributionOf, isCondenseEntry } from './pruneEntries';
import { requestOf } from './requestPoints';
import { modelKeyOf, type RequestPoint, type UsageSums } from './requestTypes';

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

/** The lists the pass appends to: shared by a ledger and the ledgers extended from it (each reads its own prefix). */
export interface TimelineLists {
	readonly requests: RequestPoint[];
	readonly markers: TimelineMarker[];
	readonly lifetimes: CacheLifetime[];
	readonly rebuilds: FoundRebuild[];
}

/** A flush whose entries are still being read: its marker is written when a request follows. */
export interface OpenFlush {
	readonly first: SessionEntry;
	/** Epoch ms of its first entry. */
	readonly firstAt: number;
	readonly entryIds: string[];
	summaries: number;
	chains: number;
	spills: number;
	records: number;
	aliases: number;
	effective: boolean;
	trigger: string | undefined;
	readonly costBefore: number;
	costAfter: number;
}

/** Where the pass stands between two entries: a handful of fields, copied whenever a ledger hands the pass on. */
export interface PassState {
	readonly sums: MutableSums;
	previousEntryId: string | undefined;
	lastReply: RequestPoint | undefined;
	lastReplyKey: string | undefined;
	/** The last request that used the cache (a reply or a cache warm-up), and its lifetime. */
	lastTouch: { readonly at: number; readonly lifetime: CacheLifetime } | undefined;
	readonly lifetimeByModel: Map<string, CacheLifetime>;
	flush: OpenFlush | undefined;
	statsCost: number;
	thinkingLevel: string | undefined;
	selectedModel: string | undefined;
	readonly rebuilds: RebuildTracker;
}

type MutableSums = { -readonly [field in keyof UsageSums]: UsageSums[field] };

export function emptyPassState(): PassState {
	return {
		sums: { requests: 0, input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: 0, costInput: 0, costOutput: 0, costCacheRead: 0, costCacheWrite: 0 },
		previousEntryId: undefined,
		lastReply: undefined,
		lastReplyKey: undefined,
		lastTouch: undefined,
		lifetimeByModel: new Map(),
		flush: undefined,
		statsCost: 0,
		thinkingLevel: undefined,
		selectedModel: undefined,
		rebuilds: new RebuildTracker(),
	};
}

/** A copy the pass may change without touching `state`. */
export function copyPassState(state: PassState): PassState {
	return {
		...state,
		sums: { ...state.sums },
		lifetimeByModel: new Map(state.lifetimeByModel),
		flush: state.flush && { ...state.flush, entryIds: state.flush.entryIds.slice() },
		rebuilds: state.rebuilds.clone(),
	};
}

/** The marker of a flush closed before request `beforeRequest`, or undefined when it changed nothing the model is sent. */
export function flushMarker(flush: OpenFlush, beforeRequest: number): PruneMarker | undefined {
	if (!flush.effective) {
		return undefined;
	}
	return {
		kind: 'prune',
		at: flush.firstAt,
		entryId: flush.first.id,
		beforeRequest,
		summaries: flush.summaries,
		chains: flush.chains,
		spills: flush.spills,
		records: flush.records,
		aliases: flush.aliases,
		trigger: flush.trigger,
		entryIds: flush.entryIds.slice(),
		summarizerCost: Math.max(0, flush.costAfter - flush.costBefore),
	};
}

/** The pass: `read` takes each entry in file order, appending to `lists` and moving `state` on. */
export class TimelinePass {
	/** The cache family of each `provider/model` seen, with the API it was read for. */
	private readonly families = new Map<string, { readonly api: string | undefined; readonly family: CacheFamily }>();
	/** `modelKeyOf` by provider and model: one string per model, not one per request. */
	private readonly keys = new Map<string, Map<string, string>>();

	constructor(private readonly lists: TimelineLists, private readonly state: PassState) {}

	read(entry: SessionEntry, entryIndex: number): void {
		const state = this.state;
		if (state.previousEntryId !== undefined && entry.parentId !== state.previousEntryId) {
			this.lists.markers.push({ kind: 'branch-switch', ...this.base(entry), fromEntryId: entry.parentId });
		}
		if (entry.type === 'compaction') {
			// Also a request when Pi recorded what writing its summary cost.
			this.lists.markers.push({ kind: 'compaction', ...this.base(entry), tokensBefore: entry.tokensBefore, fromHook: entry.fromHook === true });
		}
		const request = requestOf(entry, this.lists.requests.length, entryIndex);
		const key = request === undefined ? '' : this.keyOf(request);
		if (request !== undefined) {
			// A flush at message_end sits before the reply in the file but was written after the request
			// was sent (its entries are newer than the reply's own timestamp): it counts from the next request.
			const late = request.kind === 'reply' && state.flush !== undefined && state.flush.firstAt > request.at;
			const flush = late ? state.flush : undefined;
			if (!late) {
				this.closeFlush();
			}
			state.flush = undefined;
			this.addRequest(request, key);
			if (flush !== undefined) {
				state.flush = flush;
				this.closeFlush();
			}
		} else if (isCondenseEntry(entry)) {
			this.addToFlush(entry);
		} else {
			this.noteOther(entry);
		}
		// After the markers before this request are all written (a late flush's comes after it).
		const rebuild = state.rebuilds.read(entry, request, key, this.lists.markers);
		if (rebuild !== undefined) {
			this.lists.rebuilds.push(rebuild);
		}
		state.previousEntryId = entry.id;
	}

	private base(entry: SessionEntry): { at: number; entryId: string; beforeRequest: number } {
		return { at: Date.parse(entry.timestamp), entryId: entry.id, beforeRequest: this.lists.requests.length };
	}

	private addRequest(request: RequestPoint, key: string): void {
		const state = this.state;
		this.lists.requests.push(request);
		addTo(state.sums, request);
		const lifetime = cacheLifetimeOf(request, state.lifetimeByModel.get(key), this.familyOf(request, key));
		this.lists.lifetimes.push(lifetime);
		if (request.kind === 'reply') {
			this.markBeforeReply(request, key);
			state.lastReply = request;
			state.lastReplyKey = key;
			state.selectedModel = key;
		}
		if (request.kind === 'reply' || request.usageKind === 'cache_warm') {
			state.lifetimeByModel.set(key, lifetime);
			state.lastTouch = { at: request.at, lifetime };
		}
	}

	private keyOf(request: RequestPoint): string {
		let byModel = this.keys.get(request.provider);
		if (byModel === undefined) {
			this.keys.set(request.provider, byModel = new Map<string, string>());
		}
		let key = byModel.get(request.model);
		if (key === undefined) {
			byModel.set(request.model, key = modelKeyOf(request));
		}
		return key;
	}

	private familyOf(request: RequestPoint, key: string): CacheFamily {
		const known = this.families.get(key);
		if (known !== undefined && known.api === request.api) {
			return known.family;
		}
		const family = cacheFamilyOf(request);
		this.families.set(key, { api: request.api, family });
		return family;
	}

	/** A model change or an idle gap before a reply is marked just before it. */
	private markBeforeReply(request: RequestPoint, key: string): void {
		const state = this.state;
		const at = { at: request.at, entryId: request.entryId, beforeRequest: request.index };
		if (state.lastReplyKey !== undefined && state.lastReplyKey !== key) {
			this.lists.markers.push({ kind: 'model-change', ...at, from: state.lastReplyKey, to: key });
		}
		const touch = state.lastTouch;
		if (touch !== undefined) {
			const gapMs = request.at - touch.at;
			if (gapMs > touch.lifetime.likelyMs) {
				this.lists.markers.push({ kind: 'idle-gap', ...at, gapMs, lifetime: touch.lifetime, certainty: gapMs > touch.lifetime.surelyMs ? 'expired' : 'may-have-expired' });
			}
		}
	}

	private addToFlush(entry: SessionEntry): void {
		const state = this.state;
		const part = contributionOf(entry);
		const flush = state.flush ?? (state.flush = {
			first: entry, firstAt: Date.parse(entry.timestamp), entryIds: [], summaries: 0, chains: 0, spills: 0, records: 0, aliases: 0, effective: false, trigger: undefined,
			costBefore: state.statsCost, costAfter: state.statsCost,
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
				this.lists.markers.push({ kind: 'resume', ...this.base(entry), evidence: 'rearmed' });
			}
		}
		if (part.statsCost !== undefined) {
			flush.costAfter = part.statsCost;
			state.statsCost = part.statsCost;
		}
	}

	private closeFlush(): void {
		const flush = this.state.flush;
		this.state.flush = undefined;
		const marker = flush && flushMarker(flush, this.lists.requests.length);
		if (marker !== undefined) {
			this.lists.markers.push(marker);
		}
	}

	private noteOther(entry: SessionEntry): void {
		const state = this.state;
		switch (entry.type) {
			case 'thinking_level_change':
				if (state.lastReply !== undefined && entry.thinkingLevel === state.thinkingLevel) {
					this.lists.markers.push({ kind: 'resume', ...this.base(entry), evidence: 'restated-settings' });
				}
				state.thinkingLevel = entry.thinkingLevel;
				return;
			case 'model_change': {
				const key = `${entry.provider}/${entry.modelId}`;
				if (state.lastReply !== undefined && key === state.selectedModel) {
					this.lists.markers.push({ kind: 'resume', ...this.base(entry), evidence: 'restated-settings' });
				}
				state.selectedModel = key;
				return;
			}
			default:
				return;
		}
	}
}

function addTo(sums: MutableSums, point: Pick<RequestPoint, 'tokens' | 'cost'>): void {
	sums.requests++;
	sums.input += point.tokens.input;
	sums.output += point.tokens.output;
	sums.cacheRead += point.tokens.cacheRead;
	sums.cacheWrite += point.tokens.cacheWrite;
	sums.cost += point.cost.total;
	sums.costInput += point.cost.input;
	sums.costOutput += point.cost.output;
	sums.costCacheRead += point.cost.cacheRead;
	sums.costCacheWrite += point.cost.cacheWrite;
}
