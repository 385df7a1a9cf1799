/**
 * What a pi-condense summary holds besides its text, byte-exact with the release: the footer its
 * content ends with, its `details`, and a ref of it. The flush writes them; the preview estimates a
 * summary's size with them. Pure.
 */
import type { SummaryMessageDetails, SummaryToolCallRef } from './types';

/** The footer every summary ends with, byte-exact with pi-condense. */
export function refsFooter(refs: readonly string[]): string {
	return `\n\n---\n**Summarized tool refs**: ${refs.map((ref) => `\`${ref}\``).join(', ')}\n` +
		'Use `context_tree_query` with these refs to retrieve the original full outputs.';
}

export function summaryDetails(refs: readonly SummaryToolCallRef[], toolNames: readonly string[], turnIndex: number, timestamp: number): SummaryMessageDetails {
	return { toolCallRefs: refs, toolNames, turnIndex, timestamp };
}

/** `{shortId, toolCallId, resultTimestamp?}`: the timestamp only for 2.6.0+ occurrences. */
export function summaryRef(shortId: string, toolCallId: string, resultTimestamp: number | undefined): SummaryToolCallRef {
	return resultTimestamp === undefined ? { shortId, toolCallId } : { shortId, toolCallId, resultTimestamp };
}

