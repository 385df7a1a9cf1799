/**
 * The body text of a compressed chain's synthetic message, looked up as the release does. Pure.
 *
 * A chain uses its `rangeSummaryText` when it has one (even an empty one), else the distinct texts
 * of the per-batch summaries filed under any of its lookup keys, in branch order, joined with a
 * blank line. Summaries are filed under the keys of their refs (bare ids up to 2.5.0, occurrence
 * keys from 2.6.0, bare ids for legacy refs); a chain looks up with its `droppedToolCallIds` up to
 * 2.5.0, and with `droppedOccurrenceKeys ?? droppedToolCallIds` from 2.6.0. Summaries with an
 * empty text are never filed. Filing happens once, so many chains do not cost chains × summaries.
 */
import type { ChainCompressionEntry } from '../types';
import type { StateKeying, SummaryInfo } from './condenseState';
import { paced, type Steps } from '../../steps';

/** Summary positions by the key of each ref. */
export interface SummaryCoverage {
	readonly byKey: ReadonlyMap<string, readonly number[]>;
}

/** Files every summary under the keys of its refs, yielding between pieces of work (see `src/engine/steps.ts`). */
export function* summaryCoverageSteps(summaries: readonly SummaryInfo[]): Steps<SummaryCoverage> {
	const byKey = new Map<string, number[]>();
	for (let position = 0; position < summaries.length; position++) {
		if (paced(position)) {
			yield;
		}
		const summary = summaries[position] as SummaryInfo;
		if (summary.text === '') {
			continue;
		}
		for (const ref of summary.refs) {
			const list = byKey.get(ref.key);
			if (!list) {
				byKey.set(ref.key, [position]);
			} else if (list[list.length - 1] !== position) {
				list.push(position);
			}
		}
	}
	return { byKey };
}

/** The keys a release looks a chain's summaries up with. */
function chainLookupKeys(entry: ChainCompressionEntry, keying: StateKeying): readonly string[] {
	return keying === 'occurrence' ? entry.droppedOccurrenceKeys ?? entry.droppedToolCallIds : entry.droppedToolCallIds;
}

export function chainBodyText(entry: ChainCompressionEntry, keying: StateKeying, summaries: readonly SummaryInfo[], coverage: SummaryCoverage): string {
	if (entry.rangeSummaryText !== undefined) {
		return entry.rangeSummaryText;
	}
	return coveringSummaryTexts(chainLookupKeys(entry, keying), summaries, coverage).join('\n\n');
}

/** Distinct texts, in branch order, of the summaries filed under any of these keys. */
export function coveringSummaryTexts(keys: Iterable<string>, summaries: readonly SummaryInfo[], coverage: SummaryCoverage): string[] {
	const positions = new Set<number>();
	for (const key of keys) {
		coverage.byKey.get(key)?.forEach((position) => positions.add(position));
	}
	const texts: string[] = [];
	const seen = new Set<string>();
	for (const position of [...positions].sort((a, b) => a - b)) {
		const text = summaries[position]?.text;
		if (text !== undefined && !seen.has(text)) {
			seen.add(text);
			texts.push(text);
		}
	}
	return texts;
}

/**
 * The chains' bodies of a branch that grows (`CondenseStateBuilder`): the coverage is extended by the
 * summaries read since, and a body is looked up again only when a new summary is filed under one of
 * its keys; the bodies are those `chainBodyText` gives over all the summaries.
 */
export class GrowingChainBodies {
	private readonly byKey = new Map<string, number[]>();
	private covered = 0;
	private readonly bodies = new Map<ChainCompressionEntry, string>();

	constructor(private readonly keying: StateKeying) {}

	/** Files the summaries read since the last call; the keys they were filed under. */
	*coverSteps(summaries: readonly SummaryInfo[]): Steps<ReadonlySet<string>> {
		const touched = new Set<string>();
		for (let position = this.covered; position < summaries.length; position++) {
			if (paced(position)) {
				yield;
			}
			const summary = summaries[position] as SummaryInfo;
			if (summary.text === '') {
				continue;
			}
			for (const ref of summary.refs) {
				touched.add(ref.key);
				const list = this.byKey.get(ref.key);
				if (!list) {
					this.byKey.set(ref.key, [position]);
				} else if (list[list.length - 1] !== position) {
					list.push(position);
				}
			}
		}
		this.covered = summaries.length;
		return touched;
	}

	/** The body of `entry` over every summary covered so far (`touched`: the keys filed under since the last call). */
	bodyOf(entry: ChainCompressionEntry, summaries: readonly SummaryInfo[], touched: ReadonlySet<string>): string {
		const known = this.bodies.get(entry);
		if (known !== undefined && (entry.rangeSummaryText !== undefined || touched.size === 0 || !chainLookupKeys(entry, this.keying).some((key) => touched.has(key)))) {
			return known;
		}
		const body = chainBodyText(entry, this.keying, summaries, { byKey: this.byKey });
		this.bodies.set(entry, body);
		return body;
	}
}
