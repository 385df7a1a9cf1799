/**
 * Our own account of a flush, in counts that add up: pi-condense's notice (`pruned 373 tool calls
 * from 366 batches`) counts every batch it looked at, the skipped ones included, and its log lines
 * count the skipped ones apart (`274 skipped batches`), which read as if they disagreed. This says
 * how many batches were summarized and how many skipped, by why, so the parts make the whole, and
 * how the summaries were written (by which model, or offline). pi-condense's own texts are kept
 * as they are, beside it. Pure.
 */
import type { FlushMode, FlushReport } from './flushTypes';

const plural = (n: number, one: string, many = `${one}s`): string => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

/**
 * `how`: `with anthropic/claude-sonnet-4-5` or `offline (extractive, no LLM call)`; said only when
 * a summary was written.
 */
export function flushAccount(mode: FlushMode, report: FlushReport, how: string): string {
	const chains = report.compressedChains.length;
	const chainPart = chains > 0 ? `${plural(chains, 'chain')} compressed (${report.compressedChains.join(', ')})${report.fusedChains > 0 ? `, ${report.fusedChains} fused ${how}` : ''}` : '';
	if (mode === 'compact') {
		return chains > 0 ? `${capitalize(chainPart)}.` : 'No chain was eligible for compaction: nothing written.';
	}
	if (report.batches === 0) {
		return chains > 0 ? `Nothing was pending; ${chainPart}.` : 'Nothing was pending: nothing written.';
	}
	const { trivial, deduped, oversized } = report.skippedBatches;
	const skipped = trivial + deduped + oversized;
	const reasons = [
		trivial > 0 ? `${trivial.toLocaleString('en')} below minBatchChars` : '',
		deduped > 0 ? `${deduped.toLocaleString('en')} duplicates of earlier output (aliased, no LLM call)` : '',
		oversized > 0 ? `${oversized.toLocaleString('en')} whose summary came out longer than the output` : '',
	].filter((part) => part !== '');
	const parts = [
		report.summarizedBatches > 0
			? `Summarized ${plural(report.summarizedBatches, 'batch', 'batches')} of ${report.batches.toLocaleString('en')} (${plural(report.summarizedCalls, 'tool call')}) ${how}`
			: `Summarized none of ${plural(report.batches, 'batch', 'batches')}`,
		skipped > 0 ? `${skipped.toLocaleString('en')} skipped: ${reasons.join(', ')}` : '',
		chainPart,
	].filter((part) => part !== '');
	return `${parts.join('; ')}.`;
}

function capitalize(text: string): string {
	return text.charAt(0).toUpperCase() + text.slice(1);
}
