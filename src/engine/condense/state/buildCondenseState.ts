/**
 * Rebuilds pi-condense's state from the active branch (root → leaf, every entry type, as Pi's
 * `sessionManager.getBranch()` returns it) the way one release rebuilds it. Pure; never throws on
 * malformed entries (they become diagnostics). One pass over the branch, then one over the index.
 * `CondenseStateBuilder` does the same one entry at a time, for a branch that grows (the costs
 * engine's state at each request).
 *
 * @example
 * const state = runSteps(buildCondenseStateSteps(runSteps(getBranchSteps(model)), releaseRules('2.9.1'), { lineOf: (e) => model.lineOf(e) }));
 * state.refs.get('t3')?.record.resultText;
 */
import type { ReleaseRules } from '../../release/releases';
import type { SessionEntry } from '../../session/types';
import { bareToolCallId } from '../occurrence';
import { GrowingChainBodies } from './chainBodies';
import type { AliasOccurrence, ChainInfo, CondenseState, RecordOccurrence } from './condenseState';
import type { ChainCompressionEntry } from '../types';
import { BranchEntryReader, type LineOf } from './readBranchEntries';
import { paced, type Steps } from '../../steps';
import type { ReleaseIndex } from './releaseIndex';

export interface BuildStateOptions {
	/** 1-based line of an entry, for diagnostics. */
	readonly lineOf?: LineOf;
}

/** pi-condense's state rebuilt from `branch` (root → leaf) as `rules` rebuilds it, in steps (see `src/engine/steps.ts`). */
export function* buildCondenseStateSteps(branch: readonly SessionEntry[], rules: ReleaseRules, options: BuildStateOptions = {}): Steps<CondenseState> {
	const builder = new CondenseStateBuilder(rules, options);
	for (let i = 0; i < branch.length; i++) {
		if (paced(i)) {
			yield;
		}
		builder.add(branch[i] as SessionEntry);
	}
	yield;
	return yield* builder.stateSteps();
}

/**
 * The state of a branch read one entry at a time: `add` each entry root → leaf, `stateSteps` for the
 * state of the entries added so far, as `buildCondenseStateSteps` would build it. A state shares the
 * builder's tables: it is valid until the next `add`.
 */
export class CondenseStateBuilder {
	private readonly reader: BranchEntryReader;
	private readonly bodies: GrowingChainBodies;
	private readonly blockNumbers = new Map<ChainCompressionEntry, number>();

	constructor(rules: ReleaseRules, options: BuildStateOptions = {}) {
		this.reader = new BranchEntryReader(rules, options.lineOf ?? (() => undefined));
		this.bodies = new GrowingChainBodies(this.reader.index.keying);
	}

	add(entry: SessionEntry): void {
		this.reader.visit(entry);
	}

	*stateSteps(): Steps<CondenseState> {
		const { index, stats, diagnostics } = this.reader;
		index.finish();
		const frontier = this.reader.knownFrontier();
		const records = yield* index.setShortRefsSteps();
		const spilled: RecordOccurrence[] = [];
		let count = 0;
		for (const occurrence of records.values()) {
			if (paced(count++)) {
				yield;
			}
			if (occurrence.record.spillPath !== undefined) {
				spilled.push(occurrence);
			}
		}
		const { aliases, aliasesByBareId } = aliasOccurrences(index, records);
		const refs = new Map<string, RecordOccurrence>();
		for (const [shortId, key] of index.refKeys) {
			if (paced(count++)) {
				yield;
			}
			const occurrence = records.get(key);
			if (occurrence) {
				refs.set(shortId, occurrence);
			}
		}
		yield;
		const summaries = index.summaries;
		const { chains, blockBodies } = yield* this.chainInfosSteps();
		return {
			keying: index.keying,
			records,
			indexedInOrder: index.indexedInOrder,
			keysByBareId: index.keysByBareId,
			aliases,
			aliasesByBareId,
			refKeys: index.refKeys,
			shortRefs: index.shortRefs,
			refs,
			summaries,
			chains,
			blockBodies,
			spilled,
			nextRefNumber: index.nextRefNumber,
			nextBlockNumber: this.maxBlockNumber(chains) + 1,
			frontier,
			stats,
			diagnostics,
		};
	}

	/** The registry sorted by start timestamp, with bodies; `{bN}` bodies from the first chain (in registry order) with that id. */
	private *chainInfosSteps(): Steps<{ chains: ChainInfo[]; blockBodies: Map<string, string> }> {
		const { index } = this.reader;
		const summaries = index.summaries;
		const touched = yield* this.bodies.coverSteps(summaries);
		const blockBodies = new Map<string, string>();
		const chains: ChainInfo[] = [];
		let count = 0;
		for (const { entry, line } of index.chains.values()) {
			if (paced(count++)) {
				yield;
			}
			const bodyText = this.bodies.bodyOf(entry, summaries, touched);
			if (!blockBodies.has(entry.blockId)) {
				blockBodies.set(entry.blockId, bodyText);
			}
			chains.push(line === undefined ? { entry, bodyText } : { entry, bodyText, line });
		}
		yield;
		chains.sort((a, b) => a.entry.startUserTimestamp - b.entry.startUserTimestamp);
		return { chains, blockBodies };
	}

	/** Highest N among the chains' `bN` block ids, or 0. */
	private maxBlockNumber(chains: readonly ChainInfo[]): number {
		let max = 0;
		for (const { entry } of chains) {
			let number = this.blockNumbers.get(entry);
			if (number === undefined) {
				const match = /^b(\d+)$/.exec(entry.blockId);
				number = match ? Number(match[1]) : 0;
				this.blockNumbers.set(entry, number);
			}
			max = Math.max(max, number);
		}
		return max;
	}
}

function aliasOccurrences(index: ReleaseIndex, records: ReadonlyMap<string, RecordOccurrence>): Pick<CondenseState, 'aliases' | 'aliasesByBareId'> {
	const aliases = new Map<string, AliasOccurrence>();
	const aliasesByBareId = new Map<string, AliasOccurrence[]>();
	for (const [key, { data, originalKey, entryId }] of index.aliases) {
		const alias: AliasOccurrence = {
			key,
			toolCallId: data.newToolCallId,
			resultTimestamp: index.keying === 'occurrence' ? data.newResultTimestamp : undefined,
			originalKey,
			originalToolCallId: data.originalToolCallId,
			original: records.get(originalKey),
			shortRef: index.shortRefs.get(key),
			entryId,
		};
		aliases.set(key, alias);
		const bare = bareToolCallId(key);
		const list = aliasesByBareId.get(bare);
		if (list) {
			list.push(alias);
		} else {
			aliasesByBareId.set(bare, [alias]);
		}
	}
	return { aliases, aliasesByBareId };
}

