/**
 * What `context_tree_query` returns: the raw outputs behind `tN` refs, raw tool-call ids and dedup
 * alias ids, in pi-condense's text format, found as the release finds them. Pure apart from the
 * `BlobReader` port it is given.
 *
 * One block per id, blocks joined by `\n\n---\n\n`: `## toolRef: <id>`, `Tool:`, `Args:` (pretty
 * JSON), `Status: OK|ERROR`, `Turn:`, a blank line, then the body head-truncated like Pi's
 * `truncateHead` with `\n[Output truncated: a/b lines shown]`. A spilled body is read from its blob,
 * else the stored preview stands in.
 * - Up to 2.5.0 an id resolves to one record: indexed id, then dedup alias, then `tN`.
 * - From 2.6.0 a raw id answers every record filed under it and every alias of it (the alias shows
 *   its original's record with its own result timestamp), sorted by result timestamp (else capture
 *   time); with several, each is labelled `id@timestamp`, a legacy one keeps the bare id plus the
 *   line `Occurrence: legacy (no resultTimestamp)`. Otherwise the id resolves as one key (indexed
 *   key, alias, `tN`, a bare id with one key).
 *
 * @example
 * (await recoverOutputs(state, ['t3'], blobs)).text
 */
import type { BlobReader } from '../../ports';
import type { CondenseState } from '../state/condenseState';
import { resolveRecord } from '../state/indexLookups';
import type { ToolCallRecord } from '../types';
import { blobFileNames } from './blobFileName';
import { truncateHead } from './truncateHead';

export interface RecoveredOutput {
	readonly label: string;
	/** The record, with the occurrence's own `resultTimestamp` when it was found through an alias. */
	readonly record: ToolCallRecord;
	/** Set when several occurrences answer one id and this one has no result timestamp. */
	readonly legacyOccurrence: boolean;
}

export interface RecoveryResult {
	readonly text: string;
	/** Label → record, as pi-condense's `details.results`. */
	readonly results: Readonly<Record<string, ToolCallRecord>>;
}

export const SPILL_UNAVAILABLE = '(spilled output unavailable — sidecar file missing)';

/** The records one queried id stands for, as the release answers it. */
export function resolveRecoveryId(state: CondenseState, id: string): RecoveredOutput[] {
	const occurrences = state.keying === 'occurrence' ? occurrencesOf(state, id) : [];
	if (occurrences.length === 0) {
		const single = resolveRecord(state, id);
		return single ? [{ label: id, record: single.record, legacyOccurrence: false }] : [];
	}
	const several = occurrences.length > 1;
	return occurrences.map((record) => ({
		label: several && record.resultTimestamp !== undefined ? `${id}@${record.resultTimestamp}` : id,
		record,
		legacyOccurrence: several && record.resultTimestamp === undefined,
	}));
}

/** 2.6.0+: every record filed under a bare id, then its aliases, in time order (a stable sort). */
function occurrencesOf(state: CondenseState, id: string): ToolCallRecord[] {
	const found: ToolCallRecord[] = [];
	for (const key of state.keysByBareId.get(id) ?? []) {
		const occurrence = state.records.get(key);
		if (occurrence) {
			found.push(occurrence.record);
		}
	}
	for (const alias of state.aliasesByBareId.get(id) ?? []) {
		if (alias.original) {
			found.push({ ...alias.original.record, resultTimestamp: alias.resultTimestamp });
		}
	}
	return found.sort((a, b) => (a.resultTimestamp ?? a.timestamp) - (b.resultTimestamp ?? b.timestamp));
}

export async function recoverOutputs(state: CondenseState, ids: readonly string[], blobs?: BlobReader): Promise<RecoveryResult> {
	const blocks: string[] = [];
	const results: Record<string, ToolCallRecord> = {};
	for (const id of ids) {
		const found = resolveRecoveryId(state, id);
		if (found.length === 0) {
			blocks.push(`## toolRef: ${id}\n(not found in index — may not have been summarized yet)`);
			continue;
		}
		for (const output of found) {
			results[output.label] = output.record;
			blocks.push(`${headerOf(output)}\n${bodyOf(await rawOutput(output.record, blobs))}`);
		}
	}
	return { text: blocks.join('\n\n---\n\n'), results };
}

function headerOf({ label, record, legacyOccurrence }: RecoveredOutput): string {
	return [
		`## toolRef: ${label}`,
		...(legacyOccurrence ? ['Occurrence: legacy (no resultTimestamp)'] : []),
		`Tool: ${record.toolName}`,
		`Args: ${JSON.stringify(record.args, null, 2)}`,
		`Status: ${record.isError ? 'ERROR' : 'OK'}`,
		`Turn: ${record.turnIndex}`,
		'',
	].join('\n');
}

function bodyOf(raw: string): string {
	const cut = truncateHead(raw);
	return cut.truncated ? `${cut.content}\n[Output truncated: ${cut.outputLines}/${cut.totalLines} lines shown]` : cut.content;
}

/** The full output of a record: inline, or from its blob with the preview as fallback. */
export async function rawOutput(record: ToolCallRecord, blobs?: BlobReader): Promise<string> {
	if (!record.spillPath) {
		return record.resultText;
	}
	for (const name of blobs ? blobFileNames(record) : []) {
		const text = await blobs?.readBlob(name);
		if (text !== undefined) {
			return text;
		}
	}
	return record.resultPreview ?? SPILL_UNAVAILABLE;
}
