/**
 * The body of a chain compressed without any per-batch summary (pi-condense 2.9.0 compresses such
 * chains with a zero-LLM body built from the index instead of leaving them raw). Stored as
 * `rangeSummaryText`, so pi-condense 2.0.0 renders it too. One line per tool call, with the ref to
 * recover its output (`tN` when it has one, else the raw id, which `context_tree_query` accepts as
 * well). Pure.
 */
import type { ToolCallRecord } from '../../condense/types';

const MAX_LINES = 40;
const ARGS_EXCERPT = 120;

export interface BodyCall {
	readonly record: ToolCallRecord;
	/** `tN`, else undefined (the raw id is shown). */
	readonly ref: string | undefined;
}

export function deterministicChainBody(calls: readonly BodyCall[]): string {
	const counts = new Map<string, number>();
	for (const { record } of calls) {
		counts.set(record.toolName, (counts.get(record.toolName) ?? 0) + 1);
	}
	const tools = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([name, n]) => `${name} ×${n}`).join(', ');
	const failed = calls.filter((call) => call.record.isError).length;
	const lines = calls.slice(0, MAX_LINES).map(({ record, ref }) => {
		const size = record.spillBytes !== undefined ? `${record.spillBytes} bytes, in a blob file` : `${record.resultText.length} chars`;
		return `- ${ref ?? record.toolCallId}: ${record.toolName} ${excerpt(record.args)} → ${record.isError ? 'ERROR' : 'OK'}, ${size}`;
	});
	if (calls.length > MAX_LINES) {
		lines.push(`- … and ${calls.length - MAX_LINES} more tool calls`);
	}
	return [
		'This finished sub-task was compressed without an LLM summary (none of its tool calls had been summarized). Each raw output stays recoverable with context_tree_query and the ref shown.',
		`Tool calls: ${calls.length} (${tools})${failed > 0 ? `, ${failed} failed` : ''}.`,
		...lines,
	].join('\n');
}

function excerpt(args: Readonly<Record<string, unknown>>): string {
	const json = JSON.stringify(args) ?? '{}';
	return json.length <= ARGS_EXCERPT ? json : `${json.slice(0, ARGS_EXCERPT)}…`;
}
