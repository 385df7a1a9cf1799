/**
 * What `context_tree_query` returns: the raw outputs behind `tN` refs, raw tool-call ids and dedup
 * alias ids, in pi-condense's text format. Pure apart from the `BlobReader` port it is given.
 *
 * One block per id, blocks joined by `\n\n---\n\n`: `## toolRef: <id>`, `Tool:`, `Args:` (pretty
 * JSON), `Status: OK|ERROR`, `Turn:`, a blank line, then the body head-truncated like Pi's
 * `truncateHead` with `\n[Output truncated: a/b lines shown]`. A raw id the provider reused returns
 * every occurrence, each labelled `id@resultTimestamp`. A spilled body is read from its blob, else
 * the stored preview stands in.
 *
 * @example
 * (await recoverOutputs(state, ['t3'], blobs)).text
 */
import type { BlobReader } from '../../ports';
import { isRecordOccurrence, type CondenseState, type RecordOccurrence } from '../state/condenseState';
import type { ToolCallRecord } from '../types';
import { blobFileNames } from './blobFileName';
import { truncateHead } from './truncateHead';

export interface RecoveredOutput {
	readonly label: string;
	readonly record: ToolCallRecord;
	/** Set when several occurrences answer one id and this one has no known result timestamp. */
	readonly legacyOccurrence: boolean;
}

export interface RecoveryResult {
	readonly text: string;
	/** Label → record, as pi-condense's `details.results`. */
	readonly results: Readonly<Record<string, ToolCallRecord>>;
}

export const SPILL_UNAVAILABLE = '(spilled output unavailable — sidecar file missing)';

/** The records one queried id stands for: occurrences of a raw or alias id, else a `tN`. */
export function resolveRecoveryId(state: CondenseState, id: string): RecoveredOutput[] {
	const occurrences = new Map<string, { occurrence: RecordOccurrence; resultTimestamp: number | undefined }>();
	const exact = state.records.get(id) ?? state.aliases.get(id)?.original;
	if (exact) {
		occurrences.set(id, { occurrence: exact, resultTimestamp: undefined });
	}
	for (const item of state.byToolCallId.get(id) ?? []) {
		const occurrence = isRecordOccurrence(item) ? item : item.original ?? latestRecord(state, item.originalToolCallId);
		if (occurrence) {
			occurrences.set(item.key, { occurrence, resultTimestamp: item.resultTimestamp });
		}
	}
	const byRef = occurrences.size === 0 ? state.refs.get(id) : undefined;
	if (byRef) {
		occurrences.set(byRef.key, { occurrence: byRef, resultTimestamp: byRef.resultTimestamp });
	}
	const several = occurrences.size > 1;
	return [...occurrences.values()].map(({ occurrence, resultTimestamp }) => ({
		label: several && resultTimestamp !== undefined ? `${id}@${resultTimestamp}` : id,
		record: occurrence.record,
		legacyOccurrence: several && resultTimestamp === undefined,
	}));
}

function latestRecord(state: CondenseState, toolCallId: string): RecordOccurrence | undefined {
	const items = state.byToolCallId.get(toolCallId) ?? [];
	for (let i = items.length - 1; i >= 0; i--) {
		const item = items[i];
		if (item && isRecordOccurrence(item)) {
			return item;
		}
	}
	return undefined;
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
