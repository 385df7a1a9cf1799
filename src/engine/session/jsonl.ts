/**
 * Splitting session text into lines exactly as Pi does. Pure.
 *
 * Pi reads a session with `content.trim().split("\n")` and skips blank lines; lines are split on
 * `\n` only (a U+2028/U+2029 inside a JSON string is content, not a line break), and the `trim()`
 * also drops a leading byte-order mark. Unlike Pi we never read a last line that has no `\n` yet:
 * Pi may be in the middle of writing it.
 */

/** One non-blank, complete line of a session file. */
export interface JsonlLine {
	readonly text: string;
	/** 1-based line number in the file. */
	readonly line: number;
}

export interface SplitResult {
	readonly lines: readonly JsonlLine[];
	/** Text after the last `\n` (an unterminated, possibly half-written line); `''` when none. */
	readonly pendingTail: string;
	/** Number of `\n`-terminated lines consumed, blank ones included. */
	readonly consumedLineCount: number;
	/** Length in UTF-16 code units of the consumed part (everything up to the last `\n`). */
	readonly consumedLength: number;
}

/**
 * Splits `text` (which starts at line `firstLine` of the file) into complete non-blank lines.
 *
 * @example
 * splitJsonlLines('{"a":1}\n\n{"b":2}\n{"c"').lines.map((l) => l.line) // [1, 3]
 */
export function splitJsonlLines(text: string, firstLine = 1): SplitResult {
	const end = text.lastIndexOf('\n');
	const consumedLength = end + 1;
	const lines: JsonlLine[] = [];
	let start = 0;
	let lineNumber = firstLine;
	// Pi's trim() removes leading whitespace, a BOM included, before the first line is parsed.
	let beforeFirstContent = firstLine === 1;
	while (start < consumedLength) {
		const newline = text.indexOf('\n', start);
		let lineText = text.slice(start, newline);
		if (!isBlank(lineText)) {
			if (beforeFirstContent) {
				lineText = lineText.slice(leadingWhitespaceLength(lineText));
				beforeFirstContent = false;
			}
			lines.push({ text: lineText, line: lineNumber });
		}
		start = newline + 1;
		lineNumber++;
	}
	return {
		lines,
		pendingTail: text.slice(consumedLength),
		consumedLineCount: lineNumber - firstLine,
		consumedLength,
	};
}

/** True for a line Pi skips: empty or only whitespace (as `String.prototype.trim` sees it). */
export function isBlank(line: string): boolean {
	return leadingWhitespaceLength(line) === line.length;
}

/** How many characters `String.prototype.trimStart` would remove from the line. */
export function leadingWhitespaceLength(line: string): number {
	let i = 0;
	while (i < line.length && isTrimmedWhitespace(line.charCodeAt(i))) {
		i++;
	}
	return i;
}

/** The characters `String.prototype.trim` removes (ECMAScript WhiteSpace + LineTerminator). */
function isTrimmedWhitespace(code: number): boolean {
	return code === 0x20 || (code >= 0x09 && code <= 0x0d) || code === 0xa0 || code === 0x1680
		|| (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 || code === 0x202f
		|| code === 0x205f || code === 0x3000 || code === 0xfeff;
}
