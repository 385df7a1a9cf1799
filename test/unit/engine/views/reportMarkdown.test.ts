/**
 * Show Status's report as markdown: pi-condense's padded `key: value` columns become headings and
 * bullets with bold keys (no ragged columns, nothing lost), and a hostile value (a path in a
 * project's settings) stays text: no link, image or HTML in what marked (VS Code's renderer) sees.
 */
import assert from 'node:assert/strict';
import { marked, type Token } from 'marked';
import { reportMarkdown } from '../../../../src/engine/views';
import { statusReportText } from '../../../../src/engine/pruner';
import { defaults, LATEST } from '../../../support/releases';

function tokens(markdown: string): Token[] {
	const all: Token[] = [];
	void marked.walkTokens(marked.lexer(markdown), (token) => {
		all.push(token);
	});
	return all;
}

describe('reportMarkdown', () => {
	it('turns /pruner status into headings and one bullet per setting, every value kept', () => {
		const text = statusReportText(defaults(), { callCount: 2, totalInputTokens: 1500, totalOutputTokens: 80, totalCost: 0.0004, chainsCompressed: 1, rangesSummarized: 0 }, LATEST);
		const markdown = reportMarkdown({ title: 'Pi Condense status', text, notes: ['Figures of the session "x".'] }).value;
		const found = tokens(markdown);
		const headings = found.filter((token) => token.type === 'heading').map((token) => (token as { text: string }).text);
		assert.deepEqual(headings, ['Pi Condense status', 'pruner status', 'summarizer']);
		assert.match(markdown, /^- \*\*enabled:\*\* no$/m);
		assert.match(markdown, /^- \*\*status line:\*\* on$/m);
		// Every `key: value` line of the text is one list item, with its value.
		const items = found.filter((token) => token.type === 'list_item').map((token) => (token as { text: string }).text);
		const settings = text.split('\n').filter((line) => /^ {2}\S/.test(line));
		assert.equal(items.length, settings.length);
		for (const line of settings) {
			const [key = '', value = ''] = line.trim().split(/:\s+/, 2);
			assert.ok(items.some((item) => item.startsWith(`**${key}:**`) && item.includes(value.replace(/[!-/:-@[-`{-~]/g, '\\$&'))), `${line} in ${items.join(' | ')}`);
		}
		assert.ok(!/ {2,}\S/.test(markdown.replace(/^ +/gm, '')), 'no padded columns left');
		assert.deepEqual(found.filter((token) => token.type === 'blockquote').map((token) => (token as { text: string }).text), ['Figures of the session \\"x\\"\\.']);
	});

	it('keeps a hostile value as text: no link, image or HTML', () => {
		const text = [
			'pi-condense release: 2.9.1',
			'  folder: [click](command:workbench.action.terminal.new) ![x](https://attacker.example/p.png) <img src=x onerror=alert(1)>',
			'Pi: 1.6.0 (<b>pi</b>, https://attacker.example/a)',
		].join('\n');
		const found = tokens(reportMarkdown({ title: 'Pi Condense status', text }).value);
		assert.deepEqual(found.filter((token) => ['link', 'image', 'html'].includes(token.type)), []);
	});
});
