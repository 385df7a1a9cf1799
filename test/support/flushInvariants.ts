/**
 * What must hold for pi-condense's entries on a branch after any sequence of flushes, complete or
 * interrupted: no `tN` is given twice, every summary's calls are indexed or aliased, no tool-result
 * occurrence is indexed or aliased twice, no alias maps a call to itself or points at a call
 * without a record, no chain is compressed twice, and no block id repeats. Returns the violations
 * (empty when all hold).
 */
import { buildCondenseStateSteps, type AliasOccurrence } from '../../src/engine/condense';
import { CUSTOM_TYPE_CHAIN, CUSTOM_TYPE_DEDUP_ALIAS, CUSTOM_TYPE_INDEX } from '../../src/engine/condense/types';
import type { SessionEntry } from '../../src/engine/session/types';
import type { ReleaseRules } from '../../src/engine/release/releases';
import { WRITER_RELEASE } from './releases';
import { runSteps } from '../../src/engine/steps';

export function flushInvariantViolations(branch: readonly SessionEntry[], rules: ReleaseRules = WRITER_RELEASE): string[] {
	const state = runSteps(buildCondenseStateSteps(branch, rules));
	const problems: string[] = [...state.diagnostics.map((d) => `diagnostic: ${d.message}`)];
	const refs = new Set<string>();
	for (const summary of state.summaries) {
		for (const ref of summary.refs) {
			if (refs.has(ref.shortId)) {
				problems.push(`ref ${ref.shortId} given twice`);
			}
			refs.add(ref.shortId);
			// A summary a kill left without its index entry is ignored by the release, which covers
			// its calls again (a record, or an alias when a later flush finds a duplicate).
			if (!state.records.has(ref.key) && !state.aliases.has(ref.key)) {
				problems.push(`summary ${summary.entryId}: ${ref.shortId} (${ref.toolCallId}) has no index record`);
			}
		}
	}
	let indexRecords = 0;
	let aliasEntries = 0;
	const chainStarts = new Set<number>();
	const blockIds = new Set<string>();
	for (const entry of branch) {
		if (entry.type !== 'custom') {
			continue;
		}
		if (entry.customType === CUSTOM_TYPE_INDEX) {
			indexRecords += ((entry.data as { toolCalls?: unknown[] }).toolCalls ?? []).length;
		} else if (entry.customType === CUSTOM_TYPE_DEDUP_ALIAS) {
			aliasEntries++;
		} else if (entry.customType === CUSTOM_TYPE_CHAIN) {
			const chain = entry.data as { startUserTimestamp: number; blockId: string };
			if (chainStarts.has(chain.startUserTimestamp)) {
				problems.push(`chain at ${chain.startUserTimestamp} compressed twice`);
			}
			if (blockIds.has(chain.blockId)) {
				problems.push(`block id ${chain.blockId} given twice`);
			}
			chainStarts.add(chain.startUserTimestamp);
			blockIds.add(chain.blockId);
		}
	}
	if (state.records.size !== indexRecords) {
		problems.push(`${indexRecords} index records for ${state.records.size} occurrences: some call was indexed twice`);
	}
	if (state.aliases.size !== aliasEntries) {
		problems.push(`${aliasEntries} alias entries for ${state.aliases.size} occurrences: some call was aliased twice`);
	}
	for (const alias of state.aliases.values()) {
		if (state.records.has(alias.key)) {
			problems.push(`${alias.key} is both indexed and aliased`);
		}
		if (isSelfAlias(alias)) {
			problems.push(`alias ${alias.key} maps the call to itself (${alias.originalKey})`);
		} else if (!alias.original) {
			problems.push(`alias ${alias.key} points at ${alias.originalKey}, which has no record`);
		}
	}
	return problems;
}

/**
 * The duplicate is the original's own result: same call id, and timestamps that do not tell two
 * occurrences apart (equal, or missing on either side). A provider that reuses an id (`bash_0`)
 * gives a repeat under another result timestamp, which 2.6.0+ rightly aliases.
 */
function isSelfAlias(alias: AliasOccurrence): boolean {
	if (alias.toolCallId !== alias.originalToolCallId) {
		return false;
	}
	const originalTimestamp = alias.original?.resultTimestamp;
	return alias.key === alias.originalKey || alias.resultTimestamp === undefined || originalTimestamp === undefined || alias.resultTimestamp === originalTimestamp;
}
