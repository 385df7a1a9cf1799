/**
 * The offline summarizer: a deterministic, extractive `Summarizer` that needs no model. For each
 * call it states the tool, its key arguments, OK or ERROR (with the exit code when the output has
 * one), the size of the output and its most salient lines. It is labelled as offline in its text,
 * its `model` and its `label`. Used only when the summarizer model is `default` and the session's
 * model has no credentials; never when a model was configured explicitly. It does not fuse chain
 * summaries (that is left to concatenation). Pure.
 *
 * @example
 * await offlineSummarizer.summarize({ prompt, input }) // '(offline extractive summary …)\n- [[1:bash]] …'
 */
import { SummarizerError, type SummarizeCall, type SummarizeRequest, type SummarizeResult, type Summarizer } from '../../ports';
import { NO_USAGE } from '../../session/types';
import { exitCode, keyArguments, salientLines } from './salientLines';

export const OFFLINE_MODEL = 'offline (extractive)';
export const OFFLINE_HEADER = '(offline extractive summary: no LLM was available, so these lines are taken from the outputs themselves)';

const SALIENT_LINES = 3;

export const offlineSummarizer: Summarizer = {
	label: OFFLINE_MODEL,
	summarize(request: SummarizeRequest): Promise<SummarizeResult> {
		if (request.signal?.aborted) {
			return Promise.reject(new SummarizerError('aborted', 'The offline summary was cancelled.'));
		}
		const input = request.input;
		if (input?.kind !== 'batch') {
			return Promise.reject(new SummarizerError('model', 'The offline summarizer only summarizes tool-call batches (chain summaries are concatenated instead).'));
		}
		const text = [OFFLINE_HEADER, ...input.calls.map(describeCall)].join('\n');
		request.onTextProgress?.(text.length);
		return Promise.resolve({ text, usage: NO_USAGE, model: OFFLINE_MODEL });
	},
};

function describeCall(call: SummarizeCall): string {
	const args = keyArguments(call.args);
	const code = exitCode(call.resultText);
	const status = call.isError ? `ERROR${code === undefined ? '' : ` (exit code ${code})`}` : code !== undefined && code !== '0' ? `OK (exit code ${code})` : 'OK';
	const lineCount = call.resultText === '' ? 0 : call.resultText.replace(/\n$/, '').split('\n').length;
	const head = `- ${call.label === undefined ? '' : `${call.label} `}${call.toolName}${args ? ` ${args}` : ''}: ${status}, ${call.resultText.length} chars in ${lineCount} ${lineCount === 1 ? 'line' : 'lines'}.`;
	const lines = salientLines(call.toolName, call.resultText, call.isError, SALIENT_LINES);
	return lines.length === 0 ? head : `${head}\n${lines.map((line) => `  - ${JSON.stringify(line)}`).join('\n')}`;
}
