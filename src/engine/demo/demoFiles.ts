/**
 * File contents and command outputs of the demo project (an invoice service), realistic in shape
 * and size: a parser with a time-zone bug, its test, a failing and a passing test run, a grep, a
 * changelog. Pure and deterministic.
 */

export const parserSource = `import { DateTime } from 'luxon';

/** Parses the invoice date printed on supplier PDFs ("01.03.2026" or "2026-03-01"). */
export function parseInvoiceDate(text: string): Date {
	const trimmed = text.trim();
	const dotted = /^(\\d{2})\\.(\\d{2})\\.(\\d{4})$/.exec(trimmed);
	if (dotted) {
		const [, day, month, year] = dotted;
		return new Date(Number(year), Number(month) - 1, Number(day));
	}
	const iso = DateTime.fromISO(trimmed, { zone: 'local' });
	if (!iso.isValid) {
		throw new InvoiceDateError(\`unreadable invoice date: \${text}\`);
	}
	return iso.toJSDate();
}

export class InvoiceDateError extends Error {}
`;

export const testSource = `import { describe, expect, it } from 'vitest';
import { parseInvoiceDate } from '../src/date/parseInvoiceDate';

describe('parseInvoiceDate', () => {
	it('reads dotted dates', () => {
		expect(parseInvoiceDate('01.03.2026')).toEqual(new Date('2026-03-01'));
	});
	it('reads ISO dates', () => {
		expect(parseInvoiceDate('2026-03-01')).toEqual(new Date('2026-03-01'));
	});
	it('rejects garbage', () => {
		expect(() => parseInvoiceDate('soon')).toThrow('unreadable invoice date');
	});
});
`;

export function failingTestRun(): string {
	return [
		'> invoice-service@2.4.1 test',
		'> vitest run test/date.test.ts',
		'',
		' RUN  v3.2.4 /home/you/projects/invoice-service',
		'',
		' ❯ test/date.test.ts (3 tests | 2 failed) 41ms',
		'   × parseInvoiceDate > reads dotted dates 9ms',
		'     → expected 2026-02-28T23:00:00.000Z to equal 2026-03-01T00:00:00.000Z',
		'   × parseInvoiceDate > reads ISO dates 3ms',
		'     → expected 2026-02-28T23:00:00.000Z to equal 2026-03-01T00:00:00.000Z',
		'   ✓ parseInvoiceDate > rejects garbage 1ms',
		'',
		'⎯⎯⎯⎯⎯⎯⎯ Failed Tests 2 ⎯⎯⎯⎯⎯⎯⎯',
		'',
		' FAIL  test/date.test.ts > parseInvoiceDate > reads dotted dates',
		'AssertionError: expected 2026-02-28T23:00:00.000Z to equal 2026-03-01T00:00:00.000Z',
		' ❯ test/date.test.ts:6:44',
		'      4| describe(\'parseInvoiceDate\', () => {',
		'      5| \tit(\'reads dotted dates\', () => {',
		'      6| \t\texpect(parseInvoiceDate(\'01.03.2026\')).toEqual(new Date(\'2026-03-01\'));',
		'       |                                            ^',
		'',
		' FAIL  test/date.test.ts > parseInvoiceDate > reads ISO dates',
		'AssertionError: expected 2026-02-28T23:00:00.000Z to equal 2026-03-01T00:00:00.000Z',
		' ❯ test/date.test.ts:9:44',
		'',
		' Test Files  1 failed (1)',
		'      Tests  2 failed | 1 passed (3)',
		'   Start at  09:12:44',
		'   Duration  612ms (transform 88ms, setup 0ms, collect 101ms, tests 41ms)',
		'',
		'TZ=Europe/Berlin',
		'exit code 1',
	].join('\n');
}

export function grepOutput(): string {
	const hits = [
		'src/date/parseInvoiceDate.ts:10:\t\treturn new Date(Number(year), Number(month) - 1, Number(day));',
		'src/export/csvRow.ts:22:\tconst issued = new Date(row.issuedAt);',
		'src/reminders/schedule.ts:41:\t\tconst due = new Date(invoice.dueDate);',
		'src/reminders/schedule.ts:57:\treturn new Date(Date.now() + days * DAY_MS);',
		'test/date.test.ts:6:\t\texpect(parseInvoiceDate(\'01.03.2026\')).toEqual(new Date(\'2026-03-01\'));',
		'test/date.test.ts:9:\t\texpect(parseInvoiceDate(\'2026-03-01\')).toEqual(new Date(\'2026-03-01\'));',
		'test/reminders.test.ts:14:\tconst now = new Date(\'2026-03-01T08:00:00Z\');',
	];
	return hits.join('\n');
}

/** A full test run: long enough to be spilled to a blob file by the demo's settings. */
export function fullTestRun(): string {
	const suites = ['csvRow', 'csvExport', 'currency', 'parseInvoiceDate', 'reminders', 'schedule', 'suppliers', 'taxRates', 'totals', 'vatId'];
	const lines = ['> invoice-service@2.4.1 test', '> vitest run', '', ' RUN  v3.2.4 /home/you/projects/invoice-service', ''];
	let tests = 0;
	for (const [s, suite] of suites.entries()) {
		const count = 14 + ((s * 7) % 11);
		lines.push(` ✓ test/${suite}.test.ts (${count} tests) ${20 + s * 13}ms`);
		for (let t = 0; t < count; t++) {
			lines.push(`   ✓ ${suite} > case ${t + 1}: ${['handles empty input', 'rounds half to even', 'keeps the supplier order', 'reads the local date', 'rejects negative amounts', 'formats in de-DE'][t % 6]} ${1 + (t % 4)}ms`);
		}
		tests += count;
	}
	lines.push('', ` Test Files  ${suites.length} passed (${suites.length})`, `      Tests  ${tests} passed (${tests})`, '   Start at  09:31:02', '   Duration  2.41s', '', 'exit code 0');
	return lines.join('\n');
}

export const changelog = `# Changelog

## 2.4.1

- Supplier import: accept VAT ids with spaces.
- Reminders: never schedule a reminder on a public holiday.

## 2.4.0

- CSV export of invoices (beta).
- Currency rounding follows the supplier's country.
- Supplier import: new columns \`iban\` and \`bic\`; old files still load.

## 2.3.2

- Reminder e-mails use the supplier's language when it is known.
- Fix: totals of credit notes were shown without their minus sign in the PDF.

## 2.3.1

- Fix: a supplier without a VAT id could not be saved.
- Faster invoice list: 50 rows per page and an index on \`issued_at\`.

## 2.3.0

- Payment reminders (first, second and final) with configurable delays.
- Invoices can be tagged; tags are searchable.
`;
