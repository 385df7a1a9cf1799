/**
 * The counterfactual, from our own engine: at each conversation request, our estimate of the context
 * the model was sent, and how many tokens each earlier prune had taken out of it. Pure.
 *
 * "The same session at that request without the prune": the branch the request answered (root → its
 * parent) is rendered by the render engine (Pi's context, pi-condense's state and transform, as the
 * release does) with and without the prune's entries, and both are measured with pi-condense's own
 * estimate (characters of the JSON / 4). Prunes are taken in order: a prune's share is what it took
 * out beyond the prunes before it (render without it and every later one, minus render without only
 * the later ones), so the shares add up to everything pruning took out, and a chain that compressed
 * an earlier flush's summaries is not counted twice.
 *
 * Rendering at every request would be quadratic. A prune's share changes only when the context
 * changes other than by growing at its end: a new prune, a compaction, a branch switch, a context
 * edit. So the renders run at the first request after each such change (an epoch); later requests of
 * the epoch reuse them, and our estimate of their context grows by the messages appended since. A new
 * prune is measured when it appears, with one render: without it, the request's context is the last
 * one rendered plus what was appended since. The prunes before it are measured again (rendered with
 * and without each) only after a compaction, a branch switch or a context edit.
 */
import type { ContextPruneConfig } from '../config/types';
import { buildCondenseStateSteps } from '../condense/state/buildCondenseState';
import { renderContextSteps } from '../condense/render/renderContext';
import { jsonLength } from '../condense/measure/jsonLength';
import { serializedLengthSteps } from '../condense/measure/contextSize';
import { charsToTokens } from '../condense/measure/compactFormat';
import type { ReleaseRules } from '../release/releases';
import { getBranchSteps } from '../session/branch';
import { pathContextSteps } from '../session/context';
import type { SessionModel } from '../session/model';
import type { SessionEntry } from '../session/types';
import { paced, type Steps } from '../steps';
import type { PruneMarker } from './markerTypes';
import { isCondenseEntry } from './pruneEntries';
import { requestOf } from './requestPoints';
import type { SessionTimeline } from './sessionTimeline';

/** One conversation request as our engine sees it. */
export interface ReplyMeasure {
	/** Index in the timeline's requests. */
	readonly request: number;
	/** Our estimate (tokens) of the context sent, every prune in force applied. */
	readonly estimate: number;
	/** Index of its epoch. */
	readonly epoch: number;
}

export interface EpochMeasure {
	/** The first request of the epoch (index in the timeline's requests). */
	readonly request: number;
	/** Prunes in force (indices into `PruneMeasures.prunes`), with the tokens each took out (our estimate). */
	readonly removed: ReadonlyMap<number, number>;
}

export interface PruneMeasures {
	/** The timeline's prune markers, in order. */
	readonly prunes: readonly PruneMarker[];
	readonly replies: readonly ReplyMeasure[];
	readonly epochs: readonly EpochMeasure[];
	/** Renders run (two per new prune, more after structural changes). */
	readonly renders: number;
}

export interface MeasureInputs {
	readonly model: SessionModel;
	readonly timeline: SessionTimeline;
	readonly rules: ReleaseRules;
	/** Rendered with pruning on, whatever `enabled` says now: the prunes were written while it was. */
	readonly config: ContextPruneConfig;
}

export function* pruneMeasuresSteps(inputs: MeasureInputs): Steps<PruneMeasures> {
	const prunes = inputs.timeline.markers.filter((marker): marker is PruneMarker => marker.kind === 'prune');
	const walk = new MeasureWalk(inputs, prunes);
	const entries = inputs.model.entries;
	let requestIndex = 0;
	let previousId: string | undefined;
	for (let at = 0; at < entries.length; at++) {
		if (paced(at)) {
			yield;
		}
		const entry = entries[at] as SessionEntry;
		if (previousId !== undefined && entry.parentId !== previousId) {
			walk.structural = true;
		}
		previousId = entry.id;
		const request = requestOf(entry, requestIndex, at);
		if (request !== undefined) {
			requestIndex++;
		}
		if (request?.kind === 'reply') {
			yield* walk.reply(entry, request.index);
		}
		walk.note(entry);
	}
	return { prunes, replies: walk.replies, epochs: walk.epochs, renders: walk.renders };
}

class MeasureWalk {
	readonly replies: ReplyMeasure[] = [];
	readonly epochs: EpochMeasure[] = [];
	renders = 0;
	/** Set by anything that changes earlier context: the first request, compactions, branch moves, context edits. */
	structural = true;
	private nextPrune = 0;
	private newPrunes = false;
	private epochEstimate = 0;
	private appendedChars = 0;
	private removed = new Map<number, number>();

	constructor(private readonly inputs: MeasureInputs, private readonly prunes: readonly PruneMarker[]) {}

	/** What an entry that is not a request does to the context of the next one. */
	note(entry: SessionEntry): void {
		if (entry.type === 'compaction' || entry.type === 'context_edit' || entry.type === 'branch_summary') {
			this.structural = true;
		} else if (entry.type === 'message') {
			this.appendedChars += jsonLength(entry.message) + 1;
		} else if (entry.type === 'custom_message' && !isCondenseEntry(entry)) {
			this.appendedChars += jsonLength(entry.content) + 1;
		}
	}

	*reply(entry: SessionEntry, request: number): Steps<void> {
		while (this.nextPrune < this.prunes.length && (this.prunes[this.nextPrune] as PruneMarker).beforeRequest <= request) {
			this.nextPrune++;
			this.newPrunes = true;
		}
		if (this.structural || this.newPrunes) {
			yield* this.startEpoch(entry, request);
		}
		this.replies.push({ request, estimate: this.epochEstimate + charsToTokens(this.appendedChars), epoch: this.epochs.length - 1 });
	}

	private *startEpoch(entry: SessionEntry, request: number): Steps<void> {
		const path = yield* getBranchSteps(this.inputs.model, entry.parentId);
		const onPath = new Set(path.map((pathEntry) => pathEntry.id));
		const inForce: number[] = [];
		const notYet = new Set<string>();
		this.prunes.forEach((prune, index) => {
			if (index >= this.nextPrune) {
				prune.entryIds.forEach((id) => notYet.add(id));
			} else if (prune.entryIds.some((id) => onPath.has(id))) {
				inForce.push(index);
			}
		});
		const remeasure = new Set(this.structural ? inForce : inForce.filter((index) => !this.removed.has(index)));
		const estimates = new Map<number, number>();
		/** Our estimate with the prunes in force up to position `upTo` of `inForce` (exclusive) and none after. */
		const estimateUpTo = function* (this: MeasureWalk, upTo: number): Steps<number> {
			const known = estimates.get(upTo);
			if (known !== undefined) {
				return known;
			}
			const left = new Set(notYet);
			inForce.slice(upTo).forEach((index) => (this.prunes[index] as PruneMarker).entryIds.forEach((id) => left.add(id)));
			const tokens = yield* this.renderedTokens(left.size === 0 ? path : path.filter((pathEntry) => !left.has(pathEntry.id)));
			estimates.set(upTo, tokens);
			return tokens;
		}.bind(this);
		if (!this.structural) {
			// Only new prunes since the last renders, and they are the newest in force: without them the request's
			// context is the last one rendered plus what was appended since, which needs no render.
			const firstNew = inForce.findIndex((index) => remeasure.has(index));
			if (firstNew >= 0) {
				estimates.set(firstNew, this.epochEstimate + charsToTokens(this.appendedChars));
			}
		}
		const removed = new Map<number, number>();
		for (let position = 0; position < inForce.length; position++) {
			const index = inForce[position] as number;
			if (remeasure.has(index)) {
				removed.set(index, Math.max(0, (yield* estimateUpTo(position)) - (yield* estimateUpTo(position + 1))));
			} else {
				removed.set(index, this.removed.get(index) ?? 0);
			}
		}
		this.epochEstimate = yield* estimateUpTo(inForce.length);
		this.appendedChars = 0;
		this.removed = removed;
		this.structural = false;
		this.newPrunes = false;
		this.epochs.push({ request, removed });
	}

	/** Pi's context of `path`, rendered as the release renders it, as pi-condense estimates its tokens. */
	private *renderedTokens(path: readonly SessionEntry[]): Steps<number> {
		this.renders++;
		const { rules, config } = this.inputs;
		const context = yield* pathContextSteps(path);
		const state = yield* buildCondenseStateSteps(path, rules);
		const rendered = yield* renderContextSteps(context.messages, state, config, rules);
		return charsToTokens(yield* serializedLengthSteps(rendered));
	}
}
