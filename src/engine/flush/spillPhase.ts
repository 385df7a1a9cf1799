/**
 * Eager spill (pi-condense's step 2): a captured result of at least `spillThreshold` characters
 * is written to a blob file through the `SpillWriter` port and indexed with no LLM call: its
 * record keeps `resultText: ""`, the byte count, a head preview and the content hash. Precedence
 * is protected → dedup → spill: a large duplicate of an indexed result becomes an alias and no
 * second file is written. The blob is written first; the record exists only if that succeeded (a
 * failed write leaves the result inline for the normal summarizer path). Pure apart from the port.
 *
 * pi-condense spills at `turn_end`, so its spilled records carry the tool result's time; ours do
 * too (and the branch-wide turn index every other record has).
 */
import type { PendingBatch, PendingCall } from '../condense/pending/pendingTypes';
import { utf8ByteLength } from '../condense/recovery/utf8';
import type { CondenseState } from '../condense/state/condenseState';
import type { ToolCallRecord } from '../condense/types';
import type { DedupIndex } from './dedupIndex';
import { toolCallRecord } from './entryDrafts';
import { headPreview } from './headPreview';
import { blobNameOf, spillBlobName } from './spillNames';

/** Writes blob files into the session's `<sessionId>-blobs/` folder. */
export interface SpillWriter {
	/** Writes `body` as `fileName` (a bare, safe name) and resolves the file's absolute path. */
	writeBlob(fileName: string, body: string): Promise<string>;
}

export interface SpillSettings {
	readonly spillThreshold: number;
	readonly spillPreviewBytes: number;
	readonly dedupByContentHash: boolean;
}

/** What the spill step did to one captured batch's calls, by occurrence key. */
export interface BatchSpills {
	readonly records: ReadonlyMap<string, ToolCallRecord>;
	/** Occurrence key → the original's tool-call id. */
	readonly aliases: ReadonlyMap<string, string>;
}

export interface SpillPhaseResult {
	readonly perBatch: readonly BatchSpills[];
	/** Blob writes that failed (those results stay inline). */
	readonly failures: readonly string[];
}

/** A call to spill, with the turn index and timestamp its record gets, and its content hash. */
export interface SpillCandidate extends Omit<PendingCall, 'key'> {
	readonly turnIndex: number;
	readonly timestamp: number;
	readonly contentKey: string;
}

export function shouldSpill(resultText: string, settings: SpillSettings, writer: SpillWriter | undefined): writer is SpillWriter {
	return writer !== undefined && settings.spillThreshold > 0 && resultText.length >= settings.spillThreshold;
}

export async function spillLargeResults(
	batches: readonly PendingBatch[],
	settings: SpillSettings,
	dedup: DedupIndex,
	writer: SpillWriter | undefined,
	namesInUse: Set<string>,
): Promise<SpillPhaseResult> {
	const failures: string[] = [];
	const perBatch: BatchSpills[] = [];
	for (const batch of batches) {
		const records = new Map<string, ToolCallRecord>();
		const aliases = new Map<string, string>();
		for (const call of batch.toolCalls) {
			if (!shouldSpill(call.resultText, settings, writer)) {
				continue;
			}
			const contentKey = dedup.keyOf(call.toolName, call.resultText);
			const original = settings.dedupByContentHash ? dedup.originalFor(call.toolCallId, contentKey) : undefined;
			if (original !== undefined) {
				aliases.set(call.key, original);
				continue;
			}
			const spilled = await spillOne({ ...call, turnIndex: batch.turnIndex, timestamp: call.resultTimestamp, contentKey }, writer, settings.spillPreviewBytes, namesInUse);
			if (typeof spilled === 'string') {
				failures.push(spilled);
				continue;
			}
			records.set(call.key, spilled);
			dedup.add(spilled);
		}
		perBatch.push({ records, aliases });
	}
	return { perBatch, failures };
}

/** Writes one blob, then builds its record; resolves an error text when the write failed. */
export async function spillOne(candidate: SpillCandidate, writer: SpillWriter, previewBytes: number, namesInUse: Set<string>): Promise<ToolCallRecord | string> {
	const name = spillBlobName(candidate.toolCallId, candidate.resultTimestamp, namesInUse);
	let path: string;
	try {
		path = await writer.writeBlob(name, candidate.resultText);
	} catch (error) {
		return `${candidate.toolCallId}: ${error instanceof Error ? error.message : String(error)}`;
	}
	namesInUse.add(name);
	return toolCallRecord({
		toolCallId: candidate.toolCallId,
		toolName: candidate.toolName,
		args: candidate.args,
		resultText: '',
		isError: candidate.isError,
		turnIndex: candidate.turnIndex,
		timestamp: candidate.timestamp,
		spillPath: path,
		spillBytes: utf8ByteLength(candidate.resultText),
		resultPreview: headPreview(candidate.resultText, previewBytes),
		contentHash: candidate.contentKey,
	});
}

/** Names of the blobs the branch's records already use. */
export function blobNamesInUse(state: CondenseState): Set<string> {
	return new Set(state.spilled.flatMap((occurrence) => (occurrence.record.spillPath === undefined ? [] : [blobNameOf(occurrence.record.spillPath)])));
}
