/**
 * The summarizer prompt for one batch of tool calls: instructions, a blank line, then the batch
 * serialized inside `<tool-call-batch>` (pi-condense's one-user-message shape). Pure.
 *
 * Serialization facts kept from pi-condense: an optional `Assistant said: <text>` part, then one
 * block per call, `Tool: name(<pretty JSON args>)` and `Result (OK|ERROR): <text>`, each result
 * capped at 2000 characters plus ` ...[N chars truncated]`, blocks joined by `\n---\n`. Each block
 * starts with its label `[[N:toolname]]` (2.1.0), which the summary is asked to repeat so that
 * every bullet can be tied to its `tN` ref afterwards.
 *
 * @example
 * batchPrompt(batch).prompt.endsWith('</tool-call-batch>') // true
 */
import type { SummarizeCall, SummarizeInput } from '../../ports';
import type { PendingBatch, PendingCall } from '../../condense/pending/pendingTypes';

export const RESULT_CHAR_CAP = 2000;

const INSTRUCTIONS = [
	'You are condensing a batch of tool calls that an AI coding agent has already made, so that the agent can keep working without the raw outputs in its context.',
	'',
	'Every call below starts with a label such as [[1:read]]. Write 1-3 short markdown bullets per call and begin the first bullet of each call with its label, exactly as written.',
	'For each call, say:',
	'- what the tool was used for, in one sentence;',
	'- whether it succeeded or failed, and the most important data it returned;',
	'- anything the rest of the work will need to remember.',
	'Copy file paths, identifiers, function signatures and error messages verbatim. A successful call that returned nothing worth reusing gets one terse bullet. No introduction, no closing remarks.',
].join('\n');

export interface BatchPrompt {
	readonly prompt: string;
	readonly input: SummarizeInput;
}

export function callLabel(position: number, toolName: string): string {
	return `[[${position}:${toolName}]]`;
}

/** The prompt for the calls of `batch` (already reduced to the ones being summarized). */
export function batchPrompt(batch: Pick<PendingBatch, 'assistantText' | 'toolCalls'>): BatchPrompt {
	const calls: SummarizeCall[] = batch.toolCalls.map((call, i) => ({
		label: callLabel(i + 1, call.toolName),
		toolName: call.toolName,
		args: call.args,
		resultText: call.resultText,
		isError: call.isError,
	}));
	const prompt = `${INSTRUCTIONS}\n\n<tool-call-batch>\n${serializeBatch(batch.assistantText, batch.toolCalls)}\n</tool-call-batch>`;
	return { prompt, input: { kind: 'batch', assistantText: batch.assistantText, calls } };
}

/** The batch as the summarizer reads it. */
export function serializeBatch(assistantText: string, calls: readonly PendingCall[]): string {
	const blocks = calls.map((call, i) => {
		const status = call.isError ? 'ERROR' : 'OK';
		return `${callLabel(i + 1, call.toolName)} Tool: ${call.toolName}(${JSON.stringify(call.args, null, 2)})\nResult (${status}): ${capResult(call.resultText)}`;
	}).join('\n---\n');
	return assistantText ? `Assistant said: ${assistantText}\n\n${blocks}` : blocks;
}

function capResult(text: string): string {
	if (text.length <= RESULT_CHAR_CAP) {
		return text;
	}
	return `${text.slice(0, RESULT_CHAR_CAP)} ...[${text.length - RESULT_CHAR_CAP} chars truncated]`;
}
