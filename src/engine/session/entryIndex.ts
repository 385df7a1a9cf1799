/**
 * Lookup tables shared by successive snapshots of one session. Pure data structure.
 *
 * Rebuilding the id map on every append would cost as much as reading the file again, so the map is
 * shared and only ever grows; every lookup is bounded by the entry count of the snapshot asking,
 * which keeps older snapshots exact. Only the newest snapshot may extend the index (`canExtend`);
 * extending from an older one gets a fresh copy.
 */
import type { SessionEntry } from './types';
import { PACE, type Steps } from '../steps';

/** Entries indexed between two yields of `buildSteps` (a map insertion each: about a microsecond). */
const BUILD_PIECE = PACE * 16;

type Positions = number | number[];

export class EntryIndex {
	private readonly positionsById = new Map<string, Positions>();
	/** Label changes per target id, in file order: position of the label entry and the new value. */
	private readonly labelChanges = new Map<string, { at: number; label: string | undefined }[]>();
	private indexed = 0;

	static build(entries: readonly SessionEntry[]): EntryIndex {
		const index = new EntryIndex();
		index.extend(entries, 0);
		return index;
	}

	/** `build`, yielding between pieces of work (see `src/engine/steps.ts`): a large session has 100,000 entries. */
	static *buildSteps(entries: readonly SessionEntry[]): Steps<EntryIndex> {
		const index = new EntryIndex();
		for (let from = 0; from < entries.length; from += BUILD_PIECE) {
			index.extendRange(entries, from, Math.min(entries.length, from + BUILD_PIECE));
			yield;
		}
		index.indexed = entries.length;
		return index;
	}

	/** True when `count` entries are exactly what has been indexed (the caller is the newest snapshot). */
	canExtend(count: number): boolean {
		return this.indexed === count;
	}

	/** Indexes `entries[from…]`; `entries` is the full list of the snapshot being created. */
	extend(entries: readonly SessionEntry[], from: number): void {
		this.extendRange(entries, from, entries.length);
		this.indexed = entries.length;
	}

	private extendRange(entries: readonly SessionEntry[], from: number, to: number): void {
		for (let at = from; at < to; at++) {
			const entry = entries[at] as SessionEntry;
			this.addPosition(entry.id, at);
			if (entry.type === 'label') {
				const changes = this.labelChanges.get(entry.targetId);
				const change = { at, label: entry.label ? entry.label : undefined };
				if (changes) {
					changes.push(change);
				} else {
					this.labelChanges.set(entry.targetId, [change]);
				}
			}
		}
	}

	/** Position of the last entry with this id among the first `count` entries. */
	positionOf(id: string, count: number): number | undefined {
		const positions = this.positionsById.get(id);
		if (positions === undefined) {
			return undefined;
		}
		if (typeof positions === 'number') {
			return positions < count ? positions : undefined;
		}
		for (let i = positions.length - 1; i >= 0; i--) {
			const at = positions[i] as number;
			if (at < count) {
				return at;
			}
		}
		return undefined;
	}

	/** All positions of entries with this id among the first `count` entries (ids may repeat). */
	positionsOf(id: string, count: number): readonly number[] {
		const positions = this.positionsById.get(id);
		if (positions === undefined) {
			return [];
		}
		return (typeof positions === 'number' ? [positions] : positions).filter((at) => at < count);
	}

	labelOf(targetId: string, count: number): string | undefined {
		const changes = this.labelChanges.get(targetId);
		if (!changes) {
			return undefined;
		}
		for (let i = changes.length - 1; i >= 0; i--) {
			const change = changes[i] as { at: number; label: string | undefined };
			if (change.at < count) {
				return change.label;
			}
		}
		return undefined;
	}

	private addPosition(id: string, at: number): void {
		const existing = this.positionsById.get(id);
		if (existing === undefined) {
			this.positionsById.set(id, at);
		} else if (typeof existing === 'number') {
			this.positionsById.set(id, [existing, at]);
		} else {
			existing.push(at);
		}
	}
}
