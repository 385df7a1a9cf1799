/**
 * The byte-exact stub texts pi-condense puts in place of a summarized tool result. Pure.
 */
import type { ToolCallRecord } from '../types';

/** Stub for a summarized (or aliased) result; `ref` is the `tN`, or the raw id when there is none. */
export function summarizedStubText(ref: string): string {
	return `[Summarized in pruner summary, ref \`${ref}\`. Use context_tree_query to retrieve full output.]`;
}

/**
 * Stub for a spilled result. Names the `spillPath` stored in the record, exactly as pi-condense
 * does (even when that path is from another machine), with `?` for unknown bytes.
 */
export function spilledStubText(record: ToolCallRecord, ref: string): string {
	return [
		`[Oversized output spilled to file — ${record.spillBytes ?? '?'} bytes.]`,
		`Tool: ${record.toolName}`,
		'Preview (head):',
		record.resultPreview ?? '',
		`Full output — read this file (offset/limit supported): ${record.spillPath ?? ''}`,
		`Or use context_tree_query with ref \`${ref}\`.`,
	].join('\n');
}
