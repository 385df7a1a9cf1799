/**
 * What must hold for pi-condense's entries on a branch after any sequence of flushes, complete or
 * interrupted: no `tN` is given twice, every summary has its index records, no tool-result
 * occurrence is indexed or aliased twice, no chain is compressed twice, and no block id repeats.
 * Returns the violations (empty when all hold).
 */
import { buildCondenseState } from '../../src/engine/condense';
import { CUSTOM_TYPE_CHAIN, CUSTOM_TYPE_DEDUP_ALIAS, CUSTOM_TYPE_INDEX } from '../../src/engine/condense/types';
import type { SessionEntry } from '../../src/engine/session/types';
import { WRITER_RELEASE } from './releases';

export function flushInvariantViolations(branch: readonly SessionEntry[]): string[] {
	const state = buildCondenseState(branch, WRITER_RELEASE);
	const problems: string[] = [...state.diagnostics.map((d) => `diagnostic: ${d.message}`)];
	const refs = new Set<string>();
	for (const summary of state.summaries) {
		for (const ref of summary.refs) {
			if (refs.has(ref.shortId)) {
				problems.push(`ref ${ref.shortId} given twice`);
			}
			refs.add(ref.shortId);
			if (!state.records.has(ref.key)) {
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
	for (const key of state.aliases.keys()) {
		if (state.records.has(key)) {
			problems.push(`${key} is both indexed and aliased`);
		}
	}
	return problems;
}
