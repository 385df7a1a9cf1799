/**
 * Turns the `[[N:toolname]]` labels a summary repeats into the batch's `tN` refs, exactly as
 * pi-condense 2.1.0+ does (`src/summary-refs.ts`), line by line:
 *
 * 1. A line whose left-trimmed form starts with three backticks toggles "inside a fence"; it and
 *    every line inside a fence stay as they are.
 * 2. Anchored label: optional whitespace, optionally `-` or `*` plus at least one whitespace (the
 *    prefix), then `[[digits:name]]` (name: one or more characters other than `]`), then any run
 *    of whitespace. It becomes prefix + `` `tN` `` + one space when 1 ≤ N ≤ refs and the name
 *    matches the N-th tool (trimmed, case-insensitive); otherwise the prefix alone.
 * 3. Leak guard: every other `[[digits:name]]` on the line is deleted with the whitespace after it.
 *
 * The text is model output, so it is scanned by hand in one pass per line (no regular expression
 * that could backtrack over a long run of `[[`): each `]` lookup is shared across positions, which
 * keeps the whole rewrite linear in the length of the text. Pure.
 *
 * @example
 * rewriteLabels('- [[2:bash]] ran tests', ['read', 'bash'], ['t6', 't7']) // '- `t7` ran tests'
 */

const FENCE = '```';

export function rewriteLabels(text: string, toolNames: readonly string[], refs: readonly string[]): string {
	if (!text.includes('[[')) {
		return text;
	}
	// Line by line, appending as it goes (no array of lines: a long reply stays cheap).
	let out = '';
	let inFence = false;
	for (let start = 0; start <= text.length;) {
		const newline = text.indexOf('\n', start);
		const end = newline === -1 ? text.length : newline;
		const line = text.slice(start, end);
		if (line.trimStart().startsWith(FENCE)) {
			inFence = !inFence;
			out += line;
		} else {
			out += inFence || !line.includes('[[') ? line : removeLeakedLabels(rewriteAnchoredLabel(line, toolNames, refs));
		}
		out += newline === -1 ? '' : '\n';
		start = end + 1;
	}
	return out;
}

function rewriteAnchoredLabel(line: string, toolNames: readonly string[], refs: readonly string[]): string {
	let start = skipSpaces(line, 0);
	const marker = line[start];
	if ((marker === '-' || marker === '*') && isSpace(line[start + 1])) {
		start = skipSpaces(line, start + 1);
	}
	const label = readLabel(line, start, new CloseBracketFinder(line));
	if (!label) {
		return line;
	}
	const prefix = line.slice(0, start);
	const rest = line.slice(skipSpaces(line, label.end));
	const index = label.position - 1;
	const expected = toolNames[index];
	const ref = refs[index];
	const matches = index >= 0 && ref !== undefined && expected !== undefined && expected.trim().toLowerCase() === label.name.trim().toLowerCase();
	return matches ? `${prefix}\`${ref}\` ${rest}` : `${prefix}${rest}`;
}

function removeLeakedLabels(line: string): string {
	if (!line.includes('[[')) {
		return line;
	}
	const closing = new CloseBracketFinder(line);
	let out = '';
	let copiedUpTo = 0;
	let i = line.indexOf('[[');
	while (i >= 0) {
		const label = readLabel(line, i, closing);
		if (label) {
			out += line.slice(copiedUpTo, i);
			copiedUpTo = skipSpaces(line, label.end);
			i = line.indexOf('[[', copiedUpTo);
		} else {
			i = line.indexOf('[[', i + 1);
		}
	}
	return out + line.slice(copiedUpTo);
}

interface Label {
	readonly position: number;
	readonly name: string;
	/** Index just after the closing `]]`. */
	readonly end: number;
}

/** `[[digits:name]]` starting exactly at `at`, or undefined. */
function readLabel(line: string, at: number, closing: CloseBracketFinder): Label | undefined {
	if (line[at] !== '[' || line[at + 1] !== '[') {
		return undefined;
	}
	let i = at + 2;
	while (isDigit(line[i])) {
		i++;
	}
	if (i === at + 2 || line[i] !== ':') {
		return undefined;
	}
	const nameStart = i + 1;
	const close = closing.next(nameStart);
	if (close <= nameStart || line[close + 1] !== ']') {
		return undefined;
	}
	return { position: Number(line.slice(at + 2, i)), name: line.slice(nameStart, close), end: close + 2 };
}

/** The next `]` at or after a position; positions only grow, so each lookup reuses the last. */
class CloseBracketFinder {
	private found = -2;

	constructor(private readonly line: string) {}

	next(from: number): number {
		if (this.found !== -1 && this.found < from) {
			this.found = this.line.indexOf(']', from);
		}
		return this.found;
	}
}

function skipSpaces(line: string, from: number): number {
	let i = from;
	while (isSpace(line[i])) {
		i++;
	}
	return i;
}

function isDigit(char: string | undefined): boolean {
	return char !== undefined && char >= '0' && char <= '9';
}

/** JavaScript's `\s`, one character at a time (no regex call per character). */
function isSpace(char: string | undefined): boolean {
	if (char === undefined) {
		return false;
	}
	const code = char.charCodeAt(0);
	return (code >= 0x09 && code <= 0x0d) || code === 0x20 || code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a)
		|| code === 0x2028 || code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff;
}
