/**
 * The summarizer prompt for one batch of tool calls, as the user's release words it: instructions,
 * a blank line, then the batch serialized inside `<tool-call-batch>` (pi-condense's one-user-message
 * shape). Pure.
 *
 * Serialization facts kept from pi-condense: an optional `Assistant said: <text>` part, then one
 * block per call, `Tool: name(<pretty JSON args>)` and `Result (OK|ERROR): <text>`, each result
 * capped at 2000 characters plus ` ...[N chars truncated]`, blocks joined by `\n---\n`. From
 * 2.1.0 each block starts with its label `[[N:toolname]]` and one space (N counts the calls sent,
 * after dedup and agent-message merging), which the summary is asked to repeat so that every
 * bullet can be tied to its `tN` ref afterwards.
 *
 * The instructions are our own words for what each revision asks (pi-condense's prose is not
 * copied): 2.0.0 the three points per call; 2.0.1 adds verbatim identifiers and skipping calls
 * with nothing reusable; 2.1.0 adds the label paragraph.
 *
 * @example
 * batchPrompt(batch, '2.1.0').prompt.endsWith('</tool-call-batch>') // true
 */
import type { SummarizeCall, SummarizeInput } from '../../ports';
import type { PendingBatch, PendingCall } from '../../condense/pending/pendingTypes';
import type { PromptRevision } from '../../release/releases';

export const RESULT_CHAR_CAP = 2000;

const BASE_INSTRUCTIONS = [
	'You are condensing a batch of tool calls that an AI coding agent has already made, so that the agent can keep working without the raw outputs in its context.',
	'',
	'For every tool call below, write 1-3 short markdown bullets that give:',
	'- the tool and, in one sentence, what it was used for;',
	'- whether it succeeded or failed, and the most important data it returned;',
	'- anything the rest of the conversation will need to remember.',
	'Be concise: no introduction, no closing remarks.',
];

const VERBATIM_INSTRUCTIONS = [
	'',
	'Copy file paths, identifiers, function signatures and error messages exactly as they appear; never paraphrase them. Leave out a call that succeeded and returned nothing worth reusing.',
];

const LABEL_INSTRUCTIONS = [
	'',
	'Each call below starts with a label such as [[1:read]]. Start the first bullet of each call with that label, copied exactly (same number, same name), as plain text at the very start of the bullet: no bold, no backticks, no list numbering around it. Never change, renumber or make up a label, and leave out the label of any call you skip.',
];

/** The instruction text of one prompt revision. */
function batchInstructions(revision: PromptRevision): string {
	const lines = [...BASE_INSTRUCTIONS];
	if (revision !== '2.0.0') {
		lines.push(...VERBATIM_INSTRUCTIONS);
	}
	if (revision === '2.1.0') {
		lines.push(...LABEL_INSTRUCTIONS);
	}
	return lines.join('\n');
}

export interface BatchPrompt {
	readonly prompt: string;
	readonly input: SummarizeInput;
}

export function callLabel(position: number, toolName: string): string {
	return `[[${position}:${toolName}]]`;
}

/** The prompt for the calls of `batch` (already reduced to the ones being summarized). */
export function batchPrompt(batch: Pick<PendingBatch, 'assistantText' | 'toolCalls'>, revision: PromptRevision): BatchPrompt {
	const labelled = revision === '2.1.0';
	const calls: SummarizeCall[] = batch.toolCalls.map((call, i) => ({
		label: labelled ? callLabel(i + 1, call.toolName) : undefined,
		toolName: call.toolName,
		args: call.args,
		resultText: call.resultText,
		isError: call.isError,
	}));
	const prompt = `${batchInstructions(revision)}\n\n<tool-call-batch>\n${serializeBatch(batch.assistantText, batch.toolCalls, labelled)}\n</tool-call-batch>`;
	return { prompt, input: { kind: 'batch', assistantText: batch.assistantText, calls } };
}

/** The batch as the summarizer reads it; `labelled` (2.1.0+) prefixes each block with its label. */
export function serializeBatch(assistantText: string, calls: readonly PendingCall[], labelled: boolean): string {
	const blocks = calls.map((call, i) => {
		const status = call.isError ? 'ERROR' : 'OK';
		const label = labelled ? `${callLabel(i + 1, call.toolName)} ` : '';
		return `${label}Tool: ${call.toolName}(${JSON.stringify(call.args, null, 2)})\nResult (${status}): ${capResult(call.resultText)}`;
	}).join('\n---\n');
	return assistantText ? `Assistant said: ${assistantText}\n\n${blocks}` : blocks;
}

function capResult(text: string): string {
	if (text.length <= RESULT_CHAR_CAP) {
		return text;
	}
	return `${text.slice(0, RESULT_CHAR_CAP)} ...[${text.length - RESULT_CHAR_CAP} chars truncated]`;
}
