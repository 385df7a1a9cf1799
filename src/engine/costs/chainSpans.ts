/**
 * The compressed chains a prune's window must respect (`pruneWindow.ts`), kept as the costs walk
 * feeds pi-condense's entries to its state: where each chain applies in the context (its start and
 * final messages, found once), the keys its body is looked up by, the ids it drops. A chain's
 * messages are already in the context when its entry is read, so its place is known then; a later
 * copy of one of its timestamps (a chain applies only when they are unique) shows in the slot it
 * shares with the context. Rebuilt with the context after a structural change. Pure (local state).
 */
import type { ChainCompressionEntry } from '../condense/types';
import type { ContextTrack, TimestampSlot } from './contextTrack';

export interface ChainRange {
	readonly start: number;
	readonly end: number;
}

interface Placed {
	readonly chain: ChainCompressionEntry;
	readonly from: TimestampSlot;
	readonly to: TimestampSlot | undefined;
}

export class ChainSpans {
	/** Chains whose start message is in the context, by its position. */
	private readonly placed: Placed[] = [];
	/** The longest range seen: no range starting further back than this can reach a position. */
	private longest = 0;
	/** The slots the chains resolve by. */
	private readonly slots = new Set<TimestampSlot>();
	readonly blockIds = new Set<string>();
	/** Every id a chain drops (by id, up to 2.5.0). */
	readonly droppedIds = new Set<string>();
	/** Chains by the keys their body is looked up by. */
	private readonly byKey = new Map<string, ChainCompressionEntry[]>();

	constructor(private readonly track: ContextTrack, private readonly occurrenceKeys: boolean) {}

	add(chain: ChainCompressionEntry): void {
		this.blockIds.add(chain.blockId);
		chain.droppedToolCallIds.forEach((id) => this.droppedIds.add(id));
		for (const key of this.occurrenceKeys ? chain.droppedOccurrenceKeys ?? chain.droppedToolCallIds : chain.droppedToolCallIds) {
			const list = this.byKey.get(key);
			if (list === undefined) {
				this.byKey.set(key, [chain]);
			} else {
				list.push(chain);
			}
		}
		const from = this.track.userSlots.get(chain.startUserTimestamp);
		if (from === undefined) {
			return;
		}
		const to = this.track.assistantSlots.get(chain.finalAssistantTimestamp);
		this.slots.add(from);
		if (to !== undefined) {
			this.slots.add(to);
			this.longest = Math.max(this.longest, to.first - from.first);
		}
		// Kept in order of start: chains are mostly read in that order, so this walks back a step or two.
		let at = this.placed.length;
		while (at > 0 && (this.placed[at - 1] as Placed).from.first > from.first) {
			at--;
		}
		this.placed.splice(at, 0, { chain, from, to });
	}

	/** Chains whose body is looked up by `key`. */
	chainsByKey(key: string): readonly ChainCompressionEntry[] {
		return this.byKey.get(key) ?? [];
	}

	/** The slots of chain timestamps more than one message carries. */
	copies(): TimestampSlot[] {
		return this.track.duplicates.filter((slot) => this.slots.has(slot));
	}

	/** The ranges (positional chains that resolve in the whole context) holding `position`, strictly after their start. */
	rangesAround(position: number, visit: (range: ChainRange) => void): void {
		let low = 0;
		let high = this.placed.length;
		while (low < high) {
			const middle = (low + high) >>> 1;
			if ((this.placed[middle] as Placed).from.first < position) {
				low = middle + 1;
			} else {
				high = middle;
			}
		}
		for (let k = low - 1; k >= 0; k--) {
			const { from, to } = this.placed[k] as Placed;
			if (from.first < position - this.longest) {
				return;
			}
			if (to !== undefined && from.count === 1 && to.count === 1 && from.first < to.first && to.first >= position) {
				visit({ start: from.first, end: to.first });
			}
		}
	}

	/** Whether any chain resolves in the context (the positional rules need none otherwise). */
	get any(): boolean {
		return this.placed.length > 0;
	}
}
