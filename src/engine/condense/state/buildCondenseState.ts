/**
 * Rebuilds pi-condense's state from the active branch (root → leaf, every entry type, as Pi's
 * `sessionManager.getBranch()` returns it) the way one release rebuilds it. Pure; never throws on
 * malformed entries (they become diagnostics). One pass over the branch, then one over the index.
 *
 * @example
 * const state = runSteps(buildCondenseStateSteps(runSteps(getBranchSteps(model)), releaseRules('2.9.1'), { lineOf: (e) => model.lineOf(e) }));
 * state.refs.get('t3')?.record.resultText;
 */
import type { ReleaseRules } from '../../release/releases';
import type { SessionEntry } from '../../session/types';
import { bareToolCallId } from '../occurrence';
import { chainBodyText, summaryCoverageSteps } from './chainBodies';
import type { AliasOccurrence, ChainInfo, CondenseState, RecordOccurrence, SummaryInfo } from './condenseState';
import { readBranchEntriesSteps, type LineOf } from './readBranchEntries';
import { paced, type Steps } from '../../steps';
import type { ReleaseIndex } from './releaseIndex';

export interface BuildStateOptions {
	/** 1-based line of an entry, for diagnostics. */
	readonly lineOf?: LineOf;
}

/** pi-condense's state rebuilt from `branch` (root → leaf) as `rules` rebuilds it, in steps (see `src/engine/steps.ts`). */
export function* buildCondenseStateSteps(branch: readonly SessionEntry[], rules: ReleaseRules, options: BuildStateOptions = {}): Steps<CondenseState> {
	const { index, frontier, stats, diagnostics } = yield* readBranchEntriesSteps(branch, rules, options.lineOf ?? (() => undefined));
	yield;
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
	const { chains, blockBodies } = yield* chainInfos(index, summaries);
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
		nextBlockNumber: maxBlockNumber(chains) + 1,
		frontier,
		stats,
		diagnostics,
	};
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

/** The registry sorted by start timestamp, with bodies; `{bN}` bodies from the first chain (in registry order) with that id. */
function* chainInfos(index: ReleaseIndex, summaries: readonly SummaryInfo[]): Steps<{ chains: ChainInfo[]; blockBodies: Map<string, string> }> {
	const coverage = index.chains.size > 0 ? yield* summaryCoverageSteps(summaries) : { byKey: new Map<string, number[]>() };
	const blockBodies = new Map<string, string>();
	const chains: ChainInfo[] = [];
	let count = 0;
	for (const { entry, line } of index.chains.values()) {
		if (paced(count++)) {
			yield;
		}
		const bodyText = chainBodyText(entry, index.keying, summaries, coverage);
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
function maxBlockNumber(chains: readonly ChainInfo[]): number {
	let max = 0;
	for (const { entry } of chains) {
		const match = /^b(\d+)$/.exec(entry.blockId);
		if (match) {
			max = Math.max(max, Number(match[1]));
		}
	}
	return max;
}
