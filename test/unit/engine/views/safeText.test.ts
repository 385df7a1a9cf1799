/**
 * Text from sessions and models rendered by VS Code: `inertMarkdown` leaves no image, HTML element
 * or link in markdown, `escapeMarkdown` (and the `md` tag) shows a value exactly as typed,
 * `codeBlock` keeps any text inside its block, and `linkSafe` leaves nothing VS Code's linked text
 * makes a link of. Checked with marked, the library VS Code renders hovers and tooltips with, and
 * with the link pattern of VS Code's notifications, on hostile payloads and seeded combinations.
 */
import assert from 'node:assert/strict';
import { marked, type Token } from 'marked';
import { codeBlock, escapeMarkdown, inertMarkdown, linkSafe, md, SafeMarkdown } from '../../../../src/engine/views/safeText';
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
	`[Show Log](command:workbench.action.terminal.sendSequence?${encodeURIComponent('{"text":"rm -rf ~\\n"}')})`,
	`see ${ATTACKER}/page or www.attacker.example/x or mail ada@attacker.example`,
	`[ref link][r]\n\n[r]: ${ATTACKER}/r\n[shortcut]\n\n[shortcut]: command:x`,
	'[a](<command:x>) [b]( command:y "t") [c](file:///etc/passwd)',
];

/** The link pattern of VS Code's linked text (notifications, progress, input prompts): `[label](https|command|file:…)`. */
const VSCODE_LINKED_TEXT = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/gi;

function mixed(seed: number, count: number): string[] {
	const random = new Random(seed);
	return Array.from({ length: count }, () => Array.from({ length: random.int(1, 6) }, () => random.pick([...HOSTILE, '`', '```\n', '\n', '\\', '!', '[', ']', '(', '<', ':', '//', '$(', '\u202e'])).join(''));
}

/** Every token marked makes of `markdown` that can reach out or run something. */
function reachingOut(markdown: string): string[] {
	return tokensOf(markdown).filter((token) => token.type === 'image' || token.type === 'html' || token.type === 'link').map((token) => `${token.type}:${token.raw}`);
}

describe('inertMarkdown', () => {
	it('leaves no image, HTML or link in hostile markdown, and changes nothing else', () => {
		for (const text of [...HOSTILE, ...mixed(8, 500)]) {
			const inert = inertMarkdown(text).value;
			assert.deepEqual(reachingOut(inert), [], JSON.stringify(text));
			assert.doesNotMatch(marked.parse(inert, { async: false }), /<img|<svg|<script|<iframe|<a /i, text);
			assert.equal(inert.replaceAll('\u200b', ''), text);
		}
	});

	it('keeps ordinary markdown rendering the same, links shown as text', () => {
		const summary = '- `t3` read **src/app.js**: `export function main()`\n- see the docs\n\n1. one\n2. two';
		assert.equal(inertMarkdown(summary).value, summary);
		assert.match(marked.parse(inertMarkdown('[docs](https://example.com/docs)').value, { async: false }), /^<p>\[docs\]\u200b\(https:\u200b\/\/example\.com\/docs\)<\/p>/);
	});
});

describe('escapeMarkdown and the md tag', () => {
	it('show any value exactly as typed, on one line, with nothing to click', () => {
		for (const text of [...HOSTILE, ...mixed(10, 500)]) {
			const escaped = escapeMarkdown(text);
			const tokens = tokensOf(`**title** ${escaped} end`);
			const kinds = new Set(tokens.map((token) => token.type));
			assert.deepEqual([...kinds].filter((kind) => !['paragraph', 'text', 'strong', 'escape'].includes(kind)), [], JSON.stringify(text));
			const shown = tokens.filter((token) => token.type === 'escape' || (token.type === 'text' && !('tokens' in token && token.tokens))).map((token) => (token as { text: string }).text).join('');
			assert.equal(shown, `title ${text.replace(/[\u202a-\u202e\u2066-\u2069]/g, '').replace(/\r\n?|\n/g, ' ')} end`, JSON.stringify(text));
		}
	});

	it('inserts our markdown as is, numbers as digits, and escapes every string', () => {
		const title = '[Show Log](command:x) $(zap)';
		assert.equal(md`**${title}** · ${3} ${new SafeMarkdown('[ours](command:y)')}`.value, `**${escapeMarkdown(title)}** · 3 [ours](command:y)`);
		assert.deepEqual(reachingOut(md`${title}`.value), []);
		assert.doesNotMatch(md`${title}`.value, /\$\(/);
	});
});

describe('linkSafe', () => {
	it('leaves nothing VS Code\'s linked text makes a link of, and no codicon, whatever the text', () => {
		for (const text of [...HOSTILE, ...mixed(11, 500)]) {
			const safe = linkSafe(text);
			assert.deepEqual([...safe.matchAll(VSCODE_LINKED_TEXT)].map((match) => match[0]), [], JSON.stringify(text));
			assert.doesNotMatch(safe, /\$\(|:\/\//);
			assert.equal(safe.replaceAll('\u200b', ''), text.replace(/[\u202a-\u202e\u2066-\u2069]/g, ''));
		}
	});
});

describe('codeBlock', () => {
	it('holds any text exactly, in one code block, whatever fences it contains', () => {
		const random = new Random(9);
		const pieces = ['```', '````', '   ```', '  ````', '~~~', '`', '\n', 'text', ' ', '[link](command:x)', '![i](https://a/b.png)'];
		const texts = [...HOSTILE, ...Array.from({ length: 500 }, () => Array.from({ length: random.int(1, 12) }, () => random.pick(pieces)).join(''))];
		for (const text of texts) {
			const tokens = marked.lexer(codeBlock(text, 'text').value).filter((token) => token.type !== 'space');
			assert.equal(tokens.length, 1, JSON.stringify(text));
			assert.equal(tokens[0]?.type, 'code', JSON.stringify(text));
			// (marked keeps or drops a trailing line break; nothing else may differ)
			assert.equal((tokens[0] as { text: string }).text.replace(/\n+$/, ''), text.replace(/\n+$/, ''), JSON.stringify(text));
		}
	});
});
