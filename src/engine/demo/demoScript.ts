/**
 * The demo sessions' conversations: a realistic coding session (find and fix a flaky date test)
 * and a shorter one in another project. Plain data plus small generators for the long outputs.
 * Pure and deterministic.
 */
import { changelog, failingTestRun, fullTestRun, grepOutput, parserSource, testSource } from './demoFiles';

export interface DemoToolCall {
	readonly id: string;
	readonly name: string;
	readonly args: Readonly<Record<string, unknown>>;
	readonly result: string;
	readonly isError?: boolean;
}

export interface DemoTurn {
	readonly thinking?: string;
	readonly text?: string;
	readonly calls: readonly DemoToolCall[];
}

export interface DemoPrompt {
	readonly user: string;
	readonly turns: readonly DemoTurn[];
	readonly reply: string;
	/** Run `/pruner now` after this prompt's reply (as pi-condense does on an agent message). */
	readonly flushAfter: boolean;
}

export interface DemoSessionScript {
	readonly cwd: string;
	readonly name?: string;
	readonly prompts: readonly DemoPrompt[];
}

const failedEditArgs = {
	path: 'src/date/parseInvoiceDate.ts',
	edits: [{
		oldText: parserSource.replace('Number(month) - 1', 'Number(month)-1'),
		newText: parserSource.replace('return new Date(Number(year), Number(month) - 1, Number(day));', 'return new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));'),
	}],
};

export function flakyDateSession(): DemoSessionScript {
	return {
		cwd: '/home/you/projects/invoice-service',
		name: 'Fix the flaky invoice date test',
		prompts: [
			{
				user: 'CI fails on test/date.test.ts about once a day. Find out why.',
				turns: [
					{
						thinking: 'Run the failing file first and read the test, then the parser.',
						calls: [
							{ id: 'toolu_01', name: 'bash', args: { command: 'npm test -- test/date.test.ts' }, result: failingTestRun() },
							{ id: 'toolu_02', name: 'read', args: { path: 'test/date.test.ts' }, result: testSource },
						],
					},
					{
						thinking: 'The expected dates are midnight UTC; the parser builds local dates. Check every new Date( in the code.',
						calls: [
							{ id: 'toolu_03', name: 'read', args: { path: 'src/date/parseInvoiceDate.ts' }, result: parserSource },
							{ id: 'toolu_04', name: 'grep', args: { pattern: 'new Date\\(', path: '.' }, result: grepOutput() },
						],
					},
				],
				reply: 'The test compares against `new Date(\'2026-03-01\')`, which is midnight **UTC**, while `parseInvoiceDate` builds a **local** date. On CI the time zone is Europe/Berlin, so the two differ by an hour and the test fails; it only passes when the runner happens to be on UTC.',
				flushAfter: true,
			},
			{
				user: 'Before fixing it, note the bug in the changelog.',
				turns: [
					{
						calls: [{ id: 'toolu_09', name: 'read', args: { path: 'CHANGELOG.md' }, result: changelog }],
					},
					{
						calls: [{ id: 'toolu_10', name: 'edit', args: { path: 'CHANGELOG.md', edits: [{ oldText: '## 2.4.1\n', newText: '## Unreleased\n\n- Invoice dates are parsed as UTC, so they no longer shift with the server\'s time zone.\n\n## 2.4.1\n' }] }, result: 'Successfully replaced 1 block(s) in CHANGELOG.md.' }],
					},
				],
				reply: 'Added an "Unreleased" section: "Invoice dates are parsed as UTC, so they no longer shift with the server\'s time zone."',
				flushAfter: true,
			},
			{
				user: 'Fix it and make the test deterministic.',
				turns: [
					{
						thinking: 'Switch the parser to UTC for both formats.',
						calls: [{
							id: 'toolu_05', name: 'edit', args: failedEditArgs, isError: true,
							result: 'Could not find the exact text in src/date/parseInvoiceDate.ts. The old text must match exactly including all whitespace and newlines.',
						}],
					},
					{
						text: 'The edit did not match; reading the file again.',
						calls: [{ id: 'toolu_06', name: 'read', args: { path: 'src/date/parseInvoiceDate.ts' }, result: parserSource }],
					},
					{
						calls: [
							{
								id: 'toolu_07', name: 'edit',
								args: { path: 'src/date/parseInvoiceDate.ts', edits: [{ oldText: 'return new Date(Number(year), Number(month) - 1, Number(day));', newText: 'return new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));' }, { oldText: "{ zone: 'local' }", newText: "{ zone: 'utc' }" }] },
								result: 'Successfully replaced 2 block(s) in src/date/parseInvoiceDate.ts.',
							},
							{
								id: 'toolu_08', name: 'bash',
								args: { command: 'TZ=Pacific/Kiritimati npm test && TZ=America/Los_Angeles npm test -- test/date.test.ts' },
								result: fullTestRun(),
							},
						],
					},
				],
				reply: 'Fixed. The parser now returns UTC dates for both formats, and the suite passes in Kiritimati (UTC+14) and Los Angeles time zones, so the result no longer depends on where CI runs.',
				flushAfter: true,
			},
			{
				user: 'Which other places build dates from strings?',
				turns: [
					{
						thinking: 'The grep from the first task already lists them; re-run it to be sure nothing changed.',
						calls: [{ id: 'toolu_11', name: 'grep', args: { pattern: 'new Date\\(', path: 'src' }, result: grepOutput().split('\n').filter((line) => line.startsWith('src/')).join('\n') }],
					},
				],
				reply: '`src/export/csvRow.ts:22` and `src/reminders/schedule.ts:41` parse stored strings with `new Date(...)`; both read ISO timestamps with an explicit `Z`, so they are safe. Only the invoice date parser was affected.',
				flushAfter: false,
			},
		],
	};
}

export function csvExportSession(): DemoSessionScript {
	const routes = `import { Router } from 'express';
import { listInvoices } from '../store/invoices';

export const invoices = Router();

invoices.get('/', async (req, res) => {
	const page = Number(req.query.page ?? 1);
	res.json(await listInvoices({ page, pageSize: 50 }));
});
`;
	return {
		cwd: '/home/you/projects/invoice-service-api',
		prompts: [
			{
				user: 'Add GET /invoices.csv that streams every invoice as CSV.',
				turns: [
					{
						thinking: 'Look at the existing invoice routes first.',
						calls: [
							{ id: 'call_a1', name: 'read', args: { path: 'src/routes/invoices.ts' }, result: routes },
							{ id: 'call_a2', name: 'bash', args: { command: 'ls src/routes src/store' }, result: 'src/routes:\nhealth.ts\ninvoices.ts\nsuppliers.ts\n\nsrc/store:\ninvoices.ts\nsuppliers.ts\n' },
						],
					},
					{
						calls: [{ id: 'call_a3', name: 'write', args: { path: 'src/routes/invoicesCsv.ts', content: 'import { Router } from \'express\';\nimport { streamInvoices } from \'../store/invoices\';\nimport { csvRow, CSV_HEADER } from \'../export/csvRow\';\n\nexport const invoicesCsv = Router();\n\ninvoicesCsv.get(\'/invoices.csv\', async (_req, res) => {\n\tres.type(\'text/csv\');\n\tres.write(CSV_HEADER);\n\tfor await (const invoice of streamInvoices()) {\n\t\tres.write(csvRow(invoice));\n\t}\n\tres.end();\n});\n' }, result: 'Successfully wrote 412 bytes to src/routes/invoicesCsv.ts' }],
					},
				],
				reply: 'Added `src/routes/invoicesCsv.ts`: it streams `CSV_HEADER` and one `csvRow` per invoice from `streamInvoices()`. It still needs to be mounted in `src/app.ts`.',
				flushAfter: false,
			},
		],
	};
}
