/**
 * The walk behind `pruneMeasuresSteps` (pruneMeasures.ts): the session's entries in order, keeping the
 * branch, its context (`ContextTrack`) and pi-condense's state (`CondenseStateBuilder`) as it goes.
 * At each conversation request it closes an epoch when the context changed other than by growing at
 * its end: after a structural change (compaction, branch switch, context edit, the first request) it
 * rebuilds them and measures every prune in force again, in order; after a new prune it measures only
 * the new ones. Each measure renders a window (pruneFootprint.ts, pruneWindow.ts) with and without the
 * prune's entries. Pure.
 */
import { readChainEntry } from '../condense/entryReaders';
import { charsToTokens } from '../condense/measure/compactFormat';
import { jsonLength, stringifiedLength } from '../condense/measure/jsonLength';
import { renderContextSteps } from '../condense/render/renderContext';
import { CondenseStateBuilder } from '../condense/state/buildCondenseState';
import type { ChainInfo, CondenseState } from '../condense/state/condenseState';
import { CUSTOM_TYPE_CHAIN } from '../condense/types';
import { getBranchSteps } from '../session/branch';
import type { ContextMessage, SessionEntry } from '../session/types';
import { Pacer, type Steps } from '../steps';
import { ChainSpans } from './chainSpans';
import { ContextTrack } from './contextTrack';
import type { PruneMarker } from './markerTypes';
import { isCondenseEntry } from './pruneEntries';
import { footprintSteps } from './pruneFootprint';
import type { EpochMeasure, MeasureInputs, ReplyMeasure } from './pruneMeasureTypes';
import { widenedSteps, type WindowFacts } from './pruneWindow';

export class MeasureWalk {
	readonly replies: ReplyMeasure[] = [];
	readonly epochs: EpochMeasure[] = [];
	renders = 0;
	/** Set by anything that changes earlier context: the first request, compactions, branch moves, context edits. */
	private structural = true;
	private previousId: string | undefined;
	private nextPrune = 0;
	private newPrunes = false;
	/** Our estimate of the last epoch's context (characters), and what was appended since. */
	private epochChars = 0;
	private appendedChars = 0;
	private removed = new Map<number, number>();
	private readonly pruneOf = new Map<string, number>();
	/** The branch walked (root → the entry last noted), its context and its state; rebuilt after a structural change. */
	private track = new ContextTrack();
	private builder: CondenseStateBuilder;
	private state: CondenseState | undefined;
	private stateStale = true;
	/** pi-condense's entries on the branch not given to the builder yet (a prune not in force yet), in branch order. */
	private pending: SessionEntry[] = [];
	private starts: { readonly state: CondenseState; readonly byStart: ReadonlyMap<unknown, ChainInfo> } | undefined;
	/** Where the chains of the prunes measured so far apply in the context. */
	private spans: ChainSpans;

	/** 2.6.0+: a chain applies where its start message is (else, by id, anywhere). */
	private readonly positional: boolean;

	constructor(private readonly inputs: MeasureInputs, private readonly prunes: readonly PruneMarker[]) {
		this.positional = inputs.rules.positionalChains;
		prunes.forEach((prune, index) => prune.entryIds.forEach((id) => this.pruneOf.set(id, index)));
		this.builder = new CondenseStateBuilder(inputs.rules);
		this.spans = new ChainSpans(this.track, inputs.rules.occurrenceKeys);
	}

	/** Before the entry is handled: a parent other than the previous entry is a branch switch. */
	follow(entry: SessionEntry): void {
		if (this.previousId !== undefined && entry.parentId !== this.previousId) {
			this.structural = true;
		}
		this.previousId = entry.id;
	}

	/** After the entry is handled: it joins the branch and the context; returns its size (to pace the walk). */
	note(entry: SessionEntry): number {
		if (entry.type === 'compaction' || entry.type === 'context_edit' || entry.type === 'branch_summary') {
			this.structural = true;
		}
		if (!this.structural) {
			this.track.append(entry);
			if (isCondenseEntry(entry)) {
				this.pending.push(entry);
			}
		}
		let chars = 0;
		if (entry.type === 'message') {
			chars = (this.track.sizeOf.get(entry.message) ?? jsonLength(entry.message)) + 1;
		} else if (entry.type === 'custom_message' && !isCondenseEntry(entry)) {
			chars = jsonLength(entry.content) + 1;
		}
		this.appendedChars += chars;
		return chars;
	}

	*reply(entry: SessionEntry, request: number): Steps<void> {
		while (this.nextPrune < this.prunes.length && (this.prunes[this.nextPrune] as PruneMarker).beforeRequest <= request) {
			this.nextPrune++;
			this.newPrunes = true;
		}
		if (this.structural) {
			yield* this.rebuild(entry);
		} else if (this.newPrunes) {
			yield* this.measureNew();
		}
		if (this.structural || this.newPrunes) {
			this.appendedChars = 0;
			this.structural = false;
			this.newPrunes = false;
			this.epochs.push({ request, removed: this.removed });
		}
		this.replies.push({ request, estimate: charsToTokens(this.epochChars) + charsToTokens(this.appendedChars), epoch: this.epochs.length - 1 });
	}

	/** A new prune (or several) since the last epoch: each measured on its window, the earlier ones kept. */
	private *measureNew(): Steps<void> {
		const measured = [...new Set(this.pending.map((entry) => this.pruneOf.get(entry.id) ?? -1))].filter((index) => index >= 0 && index < this.nextPrune);
		const removed = new Map(this.removed);
		const newEntries = this.pending.filter((entry) => measured.includes(this.pruneOf.get(entry.id) ?? -1));
		const before = yield* this.currentState();
		const facts = this.facts(before, newEntries);
		const footprint = yield* footprintSteps(facts, newEntries);
		const window = footprint === undefined ? undefined : yield* widenedSteps(facts, footprint);
		const sizes: number[] = [];
		for (const index of measured) {
			yield* this.feedUntil((entry) => (this.pruneOf.get(entry.id) ?? -1) >= index);
			sizes.push(window === undefined ? 0 : yield* this.windowChars(window, (entry) => (this.pruneOf.get(entry.id) ?? -1) >= index));
		}
		yield* this.feedUntil(() => false);
		const all = window === undefined ? 0 : yield* this.windowChars(window, (entry) => (this.pruneOf.get(entry.id) ?? -1) >= this.nextPrune);
		measured.forEach((index, position) => removed.set(index, Math.max(0, ((sizes[position] as number) - (sizes[position + 1] ?? all)) / 4)));
		this.epochChars += this.appendedChars - ((sizes[0] ?? all) - all);
		this.removed = removed;
	}

	/**
	 * After a structural change: the branch, its context and state afresh, and every prune in force
	 * measured again in order (its share beyond the earlier ones).
	 */
	private *rebuild(entry: SessionEntry): Steps<void> {
		const path = yield* getBranchSteps(this.inputs.model, entry.parentId);
		this.track = yield* ContextTrack.fromPathSteps(path);
		this.builder = new CondenseStateBuilder(this.inputs.rules);
		this.stateStale = true;
		this.spans = new ChainSpans(this.track, this.inputs.rules.occurrenceKeys);
		this.pending = path.filter(isCondenseEntry);
		const inForce = [...new Set(this.pending.map((pending) => this.pruneOf.get(pending.id) ?? -1))].filter((index) => index >= 0 && index < this.nextPrune);
		const removed = new Map<number, number>();
		for (const index of inForce) {
			yield* this.feedUntil((pending) => (this.pruneOf.get(pending.id) ?? -1) >= index);
			const own = this.pending.filter((pending) => this.pruneOf.get(pending.id) === index);
			const facts = this.facts(yield* this.currentState(), own);
			const footprint = yield* footprintSteps(facts, own);
			if (footprint === undefined) {
				removed.set(index, 0);
				yield* this.feedUntil((pending) => (this.pruneOf.get(pending.id) ?? -1) > index);
				continue;
			}
			const window = yield* widenedSteps(facts, footprint);
			const without = yield* this.windowChars(window, (pending) => (this.pruneOf.get(pending.id) ?? -1) >= index);
			yield* this.feedUntil((pending) => (this.pruneOf.get(pending.id) ?? -1) > index);
			const withIt = yield* this.windowChars(window, (pending) => (this.pruneOf.get(pending.id) ?? -1) > index);
			removed.set(index, Math.max(0, (without - withIt) / 4));
		}
		yield* this.feedUntil(() => false);
		this.epochChars = yield* this.windowChars(0, (pending) => (this.pruneOf.get(pending.id) ?? -1) >= this.nextPrune);
		this.removed = removed;
	}

	/** What the window rules read, the chains of `entries` (the prunes measured now) placed first. */
	private facts(state: CondenseState, entries: readonly SessionEntry[]): WindowFacts {
		for (const entry of entries) {
			const chain = entry.type === 'custom' && entry.customType === CUSTOM_TYPE_CHAIN ? readChainEntry(entry.data) : undefined;
			if (chain?.ok === true) {
				this.spans.add(chain.value);
			}
		}
		return { track: this.track, rules: this.inputs.rules, config: this.inputs.config, spans: this.spans, before: state };
	}

	/**
	 * Gives the builder the pending entries in force, in branch order, up to the first one `stop`
	 * holds for (a prune to measure, or one not in force yet).
	 */
	private *feedUntil(stop: (entry: SessionEntry) => boolean): Steps<void> {
		const kept: SessionEntry[] = [];
		let stopped = false;
		const pacer = new Pacer();
		for (const entry of this.pending) {
			if (pacer.due(1)) {
				yield;
			}
			const prune = this.pruneOf.get(entry.id);
			if (stopped || stop(entry) || (prune !== undefined && prune >= this.nextPrune)) {
				stopped ||= stop(entry);
				kept.push(entry);
				continue;
			}
			this.builder.add(entry);
			this.stateStale = true;
		}
		this.pending = kept;
		yield;
	}

	/** The state's chains by start timestamp (each start has one), made once per state. */
	private chainsByStart(state: CondenseState): ReadonlyMap<unknown, ChainInfo> {
		if (this.starts?.state !== state) {
			this.starts = { state, byStart: new Map(state.chains.map((chain) => [chain.entry.startUserTimestamp, chain])) };
		}
		return this.starts.byStart;
	}

	/** The state of the entries the builder has read (the last one while it read nothing since). */
	private *currentState(): Steps<CondenseState> {
		if (this.stateStale || this.state === undefined) {
			this.state = yield* this.builder.stateSteps();
			this.stateStale = false;
		}
		return this.state;
	}

	/**
	 * Characters of the context from `start` on (its messages from entries `left` holds left out),
	 * rendered with the builder's state as the release renders it.
	 */
	private *windowChars(start: number, left: (entry: SessionEntry) => boolean): Steps<number> {
		this.renders++;
		const { messages, sources } = this.track;
		const window: ContextMessage[] = [];
		for (let position = start; position < messages.length; position++) {
			if (!left(sources[position] as SessionEntry)) {
				window.push(messages[position] as ContextMessage);
			}
		}
		const state = yield* this.currentState();
		const rendered = yield* renderContextSteps(window, this.positional ? withChainsIn(state, window, this.chainsByStart(state)) : state, this.inputs.config, this.inputs.rules);
		// `JSON.stringify(rendered).length`: the messages the render kept were measured when they joined the context.
		let chars = rendered.length === 0 ? 2 : rendered.length + 1;
		const pacer = new Pacer();
		for (const message of rendered) {
			const known = this.track.sizeOf.get(message);
			const size = known ?? stringifiedLength(message);
			chars += size;
			if (pacer.due(known === undefined ? size : 1)) {
				yield;
			}
		}
		return chars;
	}
}

/**
 * The state with only the chains whose start message is in `window` (2.6.0+): the others cannot apply
 * there (a chain applies only at its start), and each render would look every one of them up.
 */
function withChainsIn(state: CondenseState, window: readonly ContextMessage[], byStart: ReadonlyMap<unknown, ChainInfo>): CondenseState {
	const chains: ChainInfo[] = [];
	const seen = new Set<unknown>();
	for (const message of window) {
		const chain = message.role === 'user' && !seen.has(message.timestamp) ? byStart.get(message.timestamp) : undefined;
		if (chain !== undefined) {
			seen.add(message.timestamp);
			chains.push(chain);
		}
	}
	// In the state's order (by start: each start has one chain).
	chains.sort((a, b) => a.entry.startUserTimestamp - b.entry.startUserTimestamp);
	return chains.length === state.chains.length ? state : { ...state, chains };
}
