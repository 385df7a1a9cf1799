/**
 * Line and column of a `JSON.parse` failure, recovered from V8's message so an error can point at
 * the spot in settings.json. V8's wording differs between Node versions ("at position 12", "(line 3
 * column 1)", "Unexpected end of JSON input"), so each form is tried; unknown wording gives nothing.
 *
 * "Unexpected token" messages carry no position, only a quote of the text around it: the whole text
 * when it is short, else up to 10 characters either side of the error, marked with `...` where cut.
 * The position is recovered from where that quote sits in the text.
 */

export interface TextLocation {
	/** 1-based. */
	readonly line: number;
	/** 1-based, in UTF-16 code units. */
	readonly column: number;
}

export function jsonErrorLocation(message: string, text: string): TextLocation | undefined {
	const lineColumn = /\(line (\d+) column (\d+)\)/.exec(message);
	if (lineColumn?.[1] !== undefined && lineColumn[2] !== undefined) {
		return { line: Number(lineColumn[1]), column: Number(lineColumn[2]) };
	}
	const position = /at position (\d+)/.exec(message);
	if (position?.[1] !== undefined) {
		return locationOfOffset(text, Number(position[1]));
	}
	if (message.includes('Unexpected end of JSON input')) {
		return locationOfOffset(text, text.length);
	}
	const offset = unexpectedTokenOffset(message, text);
	return offset === undefined ? undefined : locationOfOffset(text, offset);
}

/** V8 quotes this many characters on each side of the error when it cuts the text. */
const CONTEXT_CHARS = 10;

function unexpectedTokenOffset(message: string, text: string): number | undefined {
	const match = /^Unexpected token '([\s\S]+?)', (\.\.\.)?"([\s\S]*)"(\.\.\.)? is not valid JSON$/.exec(message);
	if (!match) {
		return undefined;
	}
	const [, token = '', cutBefore, quote = '', cutAfter] = match;
	if (cutBefore && cutAfter) {
		const at = text.indexOf(quote);
		return at === -1 ? undefined : at + CONTEXT_CHARS;
	}
	if (cutAfter) {
		return Math.max(0, quote.length - CONTEXT_CHARS);
	}
	if (cutBefore) {
		return text.length - quote.length + CONTEXT_CHARS;
	}
	const at = text.indexOf(token);
	return at === -1 ? undefined : at;
}

function locationOfOffset(text: string, offset: number): TextLocation {
	const before = text.slice(0, offset);
	const lastNewline = before.lastIndexOf('\n');
	let line = 1;
	for (let i = before.indexOf('\n'); i !== -1; i = before.indexOf('\n', i + 1)) {
		line++;
	}
	return { line, column: offset - lastNewline };
}

/**
 * V8's message without its quote of the text ("Unexpected token 'x', \"…\" is not valid JSON" →
 * "Unexpected token 'x'"): a message about a file must not repeat what is in it (a key, say).
 */
export function withoutQuotedText(message: string): string {
	return message.replace(/, (?:\.\.\.)?"[\s\S]*"(?:\.\.\.)? is not valid JSON$/, '');
}
