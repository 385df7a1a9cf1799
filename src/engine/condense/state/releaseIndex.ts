/**
 * pi-condense's indexer as one release rebuilds it, fed the branch's entries in order. Pure (local
 * state only).
 *
 * What each release does on rebuild (its `reconstructFromSession`), one pass over the branch:
 * - index entries: every record is filed under its key (bare id up to 2.5.0; `id@resultTimestamp`
 *   from 2.6.0, the bare id for a record without one), a later record replacing an earlier one
 *   under the same key. A 2.9.0+ reader also registers a backfilled entry's `refs`; older readers
 *   ignore them (so `tN` numbers can be issued twice).
 * - summaries: each ref maps `tN` ↔ key (later refs win, a ref whose short id is its own key maps
 *   nothing) and moves the `tN` counter; the summary text is filed under the keys of its refs for
 *   chain bodies.
 * - chains: a registry keyed by start timestamp; a later entry replaces an earlier one.
 * - dedup aliases are collected and applied after the pass: duplicate key → original key, and the
 *   duplicate takes the original's `tN` when it has one.
 */
import type { ReleaseRules } from '../../release/releases';
import { occurrenceKey } from '../occurrence';
import type { ChainCompressionEntry, DedupAliasEntryData, SummaryToolCallRef, ToolCallRecord } from '../types';
import type { IndexedRecord, RecordOccurrence, StateKeying, SummaryInfo } from './condenseState';
import { paced, type Steps } from '../../steps';

/**
 * A record as filed, already in the shape the state hands out: the state's occurrence of a key is
 * the object filed last under it, its `tN` set once every ref is read (`setShortRefsSteps`). One object
 * per record instead of two: a large session has tens of thousands, and every object a step keeps
 * is copied by the collector's scavenges while the step runs.
 */
type FiledRecord = { -readonly [field in keyof RecordOccurrence]: RecordOccurrence[field] };

export interface RegisteredChain {
	readonly entry: ChainCompressionEntry;
	readonly line: number | undefined;
}

export interface RegisteredAlias {
	readonly key: string;
	readonly data: DedupAliasEntryData;
	readonly originalKey: string;
	readonly entryId: string;
}

export class ReleaseIndex {
	readonly keying: StateKeying;
	readonly index = new Map<string, FiledRecord>();
	/** Every record read, in branch order, replaced ones included (the dedup canonicals are the first of each hash). */
	readonly indexedInOrder: IndexedRecord[] = [];
	readonly keysByBareId = new Map<string, string[]>();
	/** `tN` → key. */
	readonly refKeys = new Map<string, string>();
	/** Key → `tN`. */
	readonly shortRefs = new Map<string, string>();
	/** Summaries as the state hands them out, each ref with its key. */
	readonly summaries: SummaryInfo[] = [];
	/** Start timestamp → chain; Map order is the order each start was first registered. */
	readonly chains = new Map<number, RegisteredChain>();
	/** Duplicate key → alias, in the order each key was first registered. */
	readonly aliases = new Map<string, RegisteredAlias>();
	private readonly pendingAliases: { readonly data: DedupAliasEntryData; readonly entryId: string }[] = [];
	/** The refs the last alias pass replaced (undefined: it added the key), as the summaries registered them. */
	private readonly refsBeforeAliases = new Map<string, string | undefined>();
	/** Keys whose record or `tN` may have changed since the last `setShortRefsSteps` (undefined: every key, the first time). */
	private changedKeys: Set<string> | undefined;
	private nextRef = 1;

	constructor(private readonly rules: ReleaseRules) {
		this.keying = rules.occurrenceKeys ? 'occurrence' : 'bare';
	}

	/** The key a release files an id under; timestamps count only for occurrence keying. */
	keyOf(toolCallId: string, resultTimestamp: number | undefined): string {
		return this.keying === 'occurrence' ? occurrenceKey(toolCallId, resultTimestamp) : toolCallId;
	}

	get nextRefNumber(): number {
		return this.nextRef;
	}

	addIndexEntry(entryId: string, records: readonly ToolCallRecord[], backfilled: boolean, refs: readonly SummaryToolCallRef[]): void {
		for (const record of records) {
			const key = this.keyOf(record.toolCallId, record.resultTimestamp);
			const indexed: FiledRecord = { key, record, resultTimestamp: record.resultTimestamp, shortRef: undefined, entryId, backfilled };
			this.index.set(key, indexed);
			this.changedKeys?.add(key);
			this.indexedInOrder.push(indexed);
			const keys = this.keysByBareId.get(record.toolCallId);
			if (!keys) {
				this.keysByBareId.set(record.toolCallId, [key]);
			} else if (!keys.includes(key)) {
				keys.push(key);
			}
		}
		if (backfilled && this.rules.deterministicChains) {
			this.registerRefs(refs);
		}
	}

	addSummary(entryId: string, text: string, refs: readonly SummaryToolCallRef[], turnIndex: number | undefined, timestamp: number | undefined): void {
		this.registerRefs(refs);
		const keyed = refs.map(({ shortId, toolCallId, resultTimestamp }) => ({ shortId, toolCallId, resultTimestamp, key: this.keyOf(toolCallId, resultTimestamp) }));
		this.summaries.push({ entryId, text, refs: keyed, turnIndex, timestamp });
	}

	addChain(entry: ChainCompressionEntry, line: number | undefined): void {
		this.chains.set(entry.startUserTimestamp, { entry, line });
	}

	addAlias(data: DedupAliasEntryData, entryId: string): void {
		this.pendingAliases.push({ data, entryId });
	}

	/**
	 * Gives each key's record its `tN`, once every ref was read (the index is then the state's records).
	 * Again after more entries: only the records whose key was filed or given a `tN` since.
	 */
	*setShortRefsSteps(): Steps<ReadonlyMap<string, RecordOccurrence>> {
		let count = 0;
		const keys: Iterable<string> = this.changedKeys ?? this.index.keys();
		for (const key of keys) {
			const filed = this.index.get(key);
			if (filed !== undefined) {
				filed.shortRef = this.shortRefs.get(key);
			}
			if (paced(count++)) {
				yield;
			}
		}
		this.changedKeys = new Set();
		return this.index;
	}

	/**
	 * The alias pass, after every entry read so far: may run again after more entries (the costs
	 * engine builds the state of a growing branch), with the result one pass over them all gives.
	 */
	finish(): void {
		// Undo the previous alias pass: the refs as the summaries registered them, every alias again in order.
		for (const [key, registered] of this.refsBeforeAliases) {
			this.changedKeys?.add(key);
			if (registered === undefined) {
				this.shortRefs.delete(key);
			} else {
				this.shortRefs.set(key, registered);
			}
		}
		this.refsBeforeAliases.clear();
		this.aliases.clear();
		for (const { data, entryId } of this.pendingAliases) {
			const key = this.keyOf(data.newToolCallId, data.newResultTimestamp);
			const originalKey = this.keyOf(data.originalToolCallId, data.originalResultTimestamp);
			// Re-setting a key keeps its first position, as a Map does in pi-condense.
			this.aliases.set(key, { key, data, originalKey, entryId });
			const ref = this.shortRefs.get(originalKey);
			if (ref !== undefined) {
				if (!this.refsBeforeAliases.has(key)) {
					this.refsBeforeAliases.set(key, this.shortRefs.get(key));
				}
				this.shortRefs.set(key, ref);
				this.changedKeys?.add(key);
			}
		}
	}

	private registerRefs(refs: readonly SummaryToolCallRef[]): void {
		for (const ref of refs) {
			if (ref.shortId === '' || ref.toolCallId === '') {
				continue;
			}
			const key = this.keyOf(ref.toolCallId, ref.resultTimestamp);
			if (ref.shortId !== key) {
				this.refKeys.set(ref.shortId, key);
				this.shortRefs.set(key, ref.shortId);
				this.changedKeys?.add(key);
				if (this.refsBeforeAliases.has(key)) {
					this.refsBeforeAliases.set(key, ref.shortId); // registered after an alias pass: the next pass undoes to this
				}
			}
			const match = /^t(\d+)$/.exec(ref.shortId);
			if (match) {
				this.nextRef = Math.max(this.nextRef, Number(match[1]) + 1);
			}
		}
	}
}
