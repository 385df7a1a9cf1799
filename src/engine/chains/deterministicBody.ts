/**
 * The body of a chain compressed without any per-batch summary (pi-condense 2.9.0+, stored as
 * `rangeSummaryText` with `bodySource: "deterministic"`). Seven lines, exactly as the release
 * writes them: a fixed first line, the call count, the tools by count, the time span, the first and
 * last call by time, and the refs (the records' raw ids when the chain has no `tN`). Pure.
 *
 * @example
 * deterministicChainBody([record], ['t2']).split('\n')[1] // 'Calls: 1'
 */
import type { ToolCallRecord } from '../condense/types';

const FIRST_LINE = 'Deterministic chain compression (no per-batch summary existed for this span; raw outputs recoverable via context_tree_query).';
const EXCERPT_CHARS = 200;

export function deterministicChainBody(records: readonly ToolCallRecord[], toolRefs: readonly string[]): string {
	const counts = new Map<string, number>();
	for (const record of records) {
		counts.set(record.toolName, (counts.get(record.toolName) ?? 0) + 1);
	}
	const tools = [...counts.entries()]
		.sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
		.map(([name, count]) => `${name} x${count}`)
		.join(', ');
	// Array.prototype.sort is stable: equal times keep record order, as in the release.
	const byTime = [...records].sort((a, b) => timeOf(a) - timeOf(b));
	const first = byTime[0];
	const last = byTime.at(-1);
	const span = first && last
		? `${iso(timeOf(first))} -> ${iso(timeOf(last))} (${Math.round((timeOf(last) - timeOf(first)) / 1000)}s)`
		: '';
	const refs = toolRefs.length > 0 ? toolRefs : records.map((record) => record.toolCallId);
	return [
		FIRST_LINE,
		`Calls: ${records.length}`,
		`Tools: ${tools}`,
		`Span: ${span}`,
		`First: ${first ? callLine(first) : ''}`,
		`Last: ${last ? callLine(last) : ''}`,
		`Refs: ${refs.join(', ')}`,
	].join('\n');
}

function timeOf(record: ToolCallRecord): number {
	return record.resultTimestamp ?? record.timestamp;
}

function iso(time: number): string {
	return new Date(time).toISOString();
}

function callLine(record: ToolCallRecord): string {
	const json = JSON.stringify(record.args) as string | undefined ?? '';
	return `${record.toolName} ${json.length > EXCERPT_CHARS ? `${json.slice(0, EXCERPT_CHARS)}...` : json}`;
}
