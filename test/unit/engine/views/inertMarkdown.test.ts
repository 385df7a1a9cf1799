/**
 * Markdown from sessions and models rendered by VS Code: `inertMarkdown` leaves no image and no
 * HTML element in it, and `codeBlock` keeps any text inside its block. Checked with marked, the
 * library VS Code renders hovers and tooltips with, on hostile payloads and seeded combinations.
 */
import assert from 'node:assert/strict';
import { marked, type Token } from 'marked';
import { codeBlock, inertMarkdown } from '../../../../src/engine/views/inertMarkdown';
import { fenceEscape, imagePayloads } from '../../../support/hostileSession';
import { Random } from '../../../support/random';
import { XSS_PAYLOADS } from '../../../support/xssPayloads';

const ATTACKER = 'https://attacker.example';

function tokensOf(markdown: string): Token[] {
	const all: Token[] = [];
	void marked.walkTokens(marked.lexer(markdown), (token) => {
		all.push(token);
	});
	return all;
}

const HOSTILE: readonly string[] = [
	imagePayloads(ATTACKER, 'x'),
	fenceEscape(ATTACKER),
	...XSS_PAYLOADS.map((payload) => payload.text),
	`- bullet ![a](${ATTACKER}/a.png) and \`code ![b](${ATTACKER}/b.png)\``,
	`> quoted ![q](${ATTACKER}/q.png)\n> <img src=${ATTACKER}/q2.png>`,
	`\\\\\\![three backslashes](${ATTACKER}/e.png) \\\\![two](${ATTACKER}/f.png)`,
	`<${ATTACKER}/autolink.png> <svg><image href="${ATTACKER}/s.png"/></svg>`,
	`![nested ![inner](${ATTACKER}/i.png)](${ATTACKER}/o.png)`,
	`[![linked](${ATTACKER}/l.png)](${ATTACKER}/page)`,
	`    indented code ![c](${ATTACKER}/c.png)\n\n1. list\n   ![d](${ATTACKER}/d.png)`,
];

describe('inertMarkdown', () => {
	it('leaves no image and no HTML in hostile markdown, and changes nothing else', () => {
		const random = new Random(8);
		const mixed = Array.from({ length: 500 }, () => Array.from({ length: random.int(1, 6) }, () => random.pick([...HOSTILE, '`', '```\n', '\n', '\\', '!', '[', '<'])).join(''));
		for (const text of [...HOSTILE, ...mixed]) {
			const inert = inertMarkdown(text);
			const kinds = tokensOf(inert).map((token) => token.type);
			assert.ok(!kinds.includes('image') && !kinds.includes('html'), `${JSON.stringify(text)} → ${kinds.join(',')}`);
			assert.doesNotMatch(marked.parse(inert, { async: false }), /<img|<svg|<script|<iframe/i, text);
			assert.equal(inert.replaceAll('\u200b', ''), text);
		}
	});

	it('keeps ordinary markdown rendering the same', () => {
		const summary = '- `t3` read **src/app.js**: `export function main()`\n- [docs](https://example.com/docs)\n\n1. one\n2. two';
		assert.equal(inertMarkdown(summary), summary);
		assert.equal(marked.parse(inertMarkdown(summary), { async: false }), marked.parse(summary, { async: false }));
	});
});

describe('codeBlock', () => {
	it('holds any text exactly, in one code block, whatever fences it contains', () => {
		const random = new Random(9);
		const pieces = ['```', '````', '   ```', '  ````', '~~~', '`', '\n', 'text', ' ', '[link](command:x)', '![i](https://a/b.png)'];
		const texts = [...HOSTILE, ...Array.from({ length: 500 }, () => Array.from({ length: random.int(1, 12) }, () => random.pick(pieces)).join(''))];
		for (const text of texts) {
			const tokens = marked.lexer(codeBlock(text, 'text')).filter((token) => token.type !== 'space');
			assert.equal(tokens.length, 1, JSON.stringify(text));
			assert.equal(tokens[0]?.type, 'code', JSON.stringify(text));
			// (marked keeps or drops a trailing line break; nothing else may differ)
			assert.equal((tokens[0] as { text: string }).text.replace(/\n+$/, ''), text.replace(/\n+$/, ''), JSON.stringify(text));
		}
	});
});
