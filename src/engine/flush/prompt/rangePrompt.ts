/**
 * The range-fusion prompt: the distinct per-batch summaries of one closed chain, fused into one
 * summary by a single call (recursive summarization; no raw output is sent again). The input is
 * wrapped in `<sub-task-summaries>`, as pi-condense does. Pure.
 */
import type { SummarizeInput } from '../../ports';

const INSTRUCTIONS = [
	'Below are the step-by-step summaries of one finished sub-task from an AI coding agent\'s history. Fuse them into a single summary of the whole sub-task.',
	'- Merge what overlaps or repeats instead of retelling each step.',
	'- Keep outcomes, decisions, file paths, identifiers and anything later work depends on.',
	'- Keep reference tokens such as `t12` or `b3` exactly as written.',
	'- Stay brief: a short paragraph or a few grouped bullets.',
].join('\n');

export function rangePrompt(summaries: readonly string[]): { readonly prompt: string; readonly input: SummarizeInput } {
	return {
		prompt: `${INSTRUCTIONS}\n\n<sub-task-summaries>\n${summaries.join('\n\n')}\n</sub-task-summaries>`,
		input: { kind: 'range', summaries },
	};
}
