/**
 * The summarizer of the demo sessions: summaries written in advance for the demo's batches, in the
 * shape a model returns them (bullets that start with the `[[N:tool]]` labels, which the flush then
 * turns into `tN` refs). Anything it has no text for falls back to the offline extractive
 * summarizer, so a demo never calls a paid model. Pure and deterministic.
 */
import { offlineSummarizer } from '../flush/offline/extractiveSummarizer';
import type { SummarizeCall, SummarizeRequest, SummarizeResult, Summarizer } from '../ports';
import { NO_USAGE } from '../session/types';

const DEMO_MODEL = 'demo (scripted summaries)';

/** Summary bullets for one call, by `tool:key argument`. */
const bulletsByCall: Record<string, string> = {
	'bash:npm test -- test/date.test.ts': 'vitest: 2 of 3 tests in `test/date.test.ts` fail ("reads dotted dates", "reads ISO dates"): expected `2026-02-28T23:00:00.000Z` to equal `2026-03-01T00:00:00.000Z`; CI runs with `TZ=Europe/Berlin`.',
	'read:test/date.test.ts': 'The tests compare `parseInvoiceDate(...)` with `new Date(\'2026-03-01\')`, i.e. midnight UTC.',
	'read:src/date/parseInvoiceDate.ts': '`parseInvoiceDate(text: string): Date` builds dotted dates with `new Date(year, month - 1, day)` (local time) and ISO dates with luxon `DateTime.fromISO(trimmed, { zone: \'local\' })`; throws `InvoiceDateError` on garbage.',
	'read:CHANGELOG.md': '`CHANGELOG.md` starts at `## 2.4.1` (VAT ids with spaces, no reminders on holidays); older sections down to 2.3.0; no Unreleased section yet.',
	'grep:.': '`new Date(` appears in `src/date/parseInvoiceDate.ts:10`, `src/export/csvRow.ts:22`, `src/reminders/schedule.ts:41,57` and the two date tests.',
};

const fusedRange = 'Investigated the flaky `test/date.test.ts`: the tests expect midnight UTC (`new Date(\'2026-03-01\')`) while `parseInvoiceDate` in `src/date/parseInvoiceDate.ts` builds local dates (dotted via `new Date(y, m - 1, d)`, ISO via luxon with `zone: \'local\'`), so with CI\'s `TZ=Europe/Berlin` both date tests fail by one hour. Other `new Date(` uses: `src/export/csvRow.ts:22`, `src/reminders/schedule.ts:41,57`. Refs `t1`–`t4` hold the raw outputs.';


function callKey(call: SummarizeCall): string {
	const args = call.args;
	const key = args['command'] ?? args['path'] ?? '';
	return `${call.toolName}:${typeof key === 'string' ? key : ''}`;
}

export const demoSummarizer: Summarizer = {
	label: DEMO_MODEL,
	summarize(request: SummarizeRequest): Promise<SummarizeResult> {
		const input = request.input;
		if (input?.kind === 'range') {
			return Promise.resolve({ text: fusedRange, usage: NO_USAGE, model: DEMO_MODEL });
		}
		const bullets = input?.calls.map((call) => {
			const text = bulletsByCall[callKey(call)];
			return text === undefined ? undefined : `- ${call.label} ${text}`;
		});
		if (bullets === undefined || bullets.some((bullet) => bullet === undefined)) {
			return offlineSummarizer.summarize(request);
		}
		const text = bullets.join('\n');
		request.onTextProgress?.(text.length);
		return Promise.resolve({ text, usage: NO_USAGE, model: DEMO_MODEL });
	},
};
