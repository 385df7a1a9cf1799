/**
 * Rebuilds pi-condense's state from the active branch (root → leaf, every entry type, as Pi's
 * `sessionManager.getBranch()` returns it). Pure; never throws on malformed entries (they become
 * diagnostics).
 *
 * @example
 * const state = buildCondenseState(getBranch(model), { lineOf: (e) => model.lineOf(e) });
 * state.refs.get('t3')?.record.resultText;
 */
import type { SessionEntry } from '../../session/types';
import { collectDrafts, type LineOf } from './collectDrafts';
import type {
	AliasOccurrence, ChainInfo, CondenseState, RecordOccurrence, SummaryInfo, SummaryRef,
} from './condenseState';
import { bindSummaryRefs } from './summaryRefBinding';
import { chainBodyText, summaryCoverage } from './chainBodies';
import type { RecordDraft, StateDrafts } from './stateDrafts';

export interface BuildStateOptions {
	/** 1-based line of an entry, for diagnostics. */
	readonly lineOf?: LineOf;
}

export function buildCondenseState(branch: readonly SessionEntry[], options: BuildStateOptions = {}): CondenseState {
	const drafts = collectDrafts(branch, options.lineOf ?? (() => undefined));
	const binding = bindSummaryRefs(drafts);
	const frozen = new Map<RecordDraft, RecordOccurrence>();
	const freeze = (draft: RecordDraft): RecordOccurrence => {
		let occurrence = frozen.get(draft);
		if (!occurrence) {
			const { key, record, resultTimestamp, entryId, shortRef } = draft;
			occurrence = { key, record, resultTimestamp, shortRef, entryId };
			frozen.set(draft, occurrence);
		}
		return occurrence;
	};

	const records = new Map<string, RecordOccurrence>();
	const byToolCallId = new Map<string, (RecordOccurrence | AliasOccurrence)[]>();
	const addById = (id: string, item: RecordOccurrence | AliasOccurrence): void => {
		const list = byToolCallId.get(id) ?? [];
		list.push(item);
		byToolCallId.set(id, list);
	};
	for (const draft of drafts.records) {
		const occurrence = freeze(draft);
		records.set(occurrence.key, occurrence);
		addById(occurrence.record.toolCallId, occurrence);
	}
	const aliases = new Map<string, AliasOccurrence>();
	for (const draft of drafts.aliases) {
		const alias: AliasOccurrence = { ...draft, original: draft.original && freeze(draft.original) };
		aliases.set(alias.key, alias);
		addById(alias.toolCallId, alias);
	}
	const refs = new Map<string, RecordOccurrence>();
	for (const [shortId, draft] of binding.byShortId) {
		refs.set(shortId, freeze(draft));
	}
	const summaries = drafts.summaries.map((summary, i): SummaryInfo => ({
		entryId: summary.entryId,
		text: summary.text,
		refs: summary.details.toolCallRefs.map((ref, j): SummaryRef => ({ ...ref, key: binding.perSummary[i]?.[j]?.key })),
		turnIndex: summary.details.turnIndex,
		timestamp: summary.details.timestamp,
	}));
	return {
		records,
		aliases,
		refs,
		byToolCallId,
		summaries,
		chains: chainInfos(drafts, summaries),
		spilled: [...records.values()].filter((occurrence) => occurrence.record.spillPath !== undefined),
		nextRefNumber: maxNumber(drafts.summaries.flatMap((s) => s.details.toolCallRefs.map((r) => r.shortId)), 't') + 1,
		nextBlockNumber: maxNumber(drafts.chains.map((c) => c.entry.blockId), 'b') + 1,
		frontier: drafts.frontier,
		stats: drafts.stats,
		diagnostics: drafts.diagnostics,
	};
}

/** One chain per start timestamp (a later entry replaces an earlier one), oldest start first. */
function chainInfos(drafts: StateDrafts, summaries: readonly SummaryInfo[]): ChainInfo[] {
	const byStart = new Map<number, StateDrafts['chains'][number]>();
	for (const chain of drafts.chains) {
		byStart.set(chain.entry.startUserTimestamp, chain);
	}
	const coverage = byStart.size > 0 ? summaryCoverage(summaries) : undefined;
	return [...byStart.values()]
		.sort((a, b) => a.entry.startUserTimestamp - b.entry.startUserTimestamp)
		.map((chain) => ({ ...chain, bodyText: chainBodyText(chain, summaries, coverage) }));
}

/** Highest N among ids shaped `<prefix>N`, or 0. */
function maxNumber(ids: readonly string[], prefix: string): number {
	let max = 0;
	for (const id of ids) {
		if (id.startsWith(prefix)) {
			const digits = id.slice(prefix.length);
			if (/^\d+$/.test(digits)) {
				max = Math.max(max, Number(digits));
			}
		}
	}
	return max;
}
