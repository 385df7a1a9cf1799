/**
 * One complete line of a session file as the history index reads it, and how its text becomes
 * what `JSON.parse` of the UTF-8 text would give. Pure.
 *
 * Most of a history's bytes are long lines (tool outputs, signatures, pi-condense's index entries)
 * of which the index keeps a few short fields. Such a line is handed over with each byte as one
 * character (`latin1`): no UTF-8 decoding, and `JSON.parse` works on a one-byte string, its
 * fastest case. This is exact, not a guess:
 * - JSON's structure is ASCII, and a byte of 0x80 or more is valid inside a string and invalid
 *   outside one in both readings, so a line parses in one reading exactly when it parses in the
 *   other, to values of the same shape, with the same ASCII strings and numbers;
 * - a string with characters of 0x80 or more is turned back into its UTF-8 reading by `utf8Of`:
 *   its runs of byte-characters are decoded as UTF-8 (as the whole line would have been), the
 *   characters above 0xFF came from `\u` escapes and stay. Only a `\u0080`–`\u00FF` escape would
 *   be mistaken for a byte: a line holding one is read again as UTF-8 (`exactLine`). Pi writes
 *   with `JSON.stringify`, which never escapes those.
 *
 * The history index reads few strings of a long line, nearly always ASCII, so it looks for such
 * escapes only when one of those strings is not (`lineReading`), not over every long line.
 */

/** Lines at least this long (in bytes) are handed over as `latin1` (see above); shorter ones as UTF-8. */
export const LATIN1_LINE_BYTES = 4096;

export interface RawLine {
	/** The line without its `\n`: decoded as UTF-8, or one character per byte (`latin1`). */
	readonly text: string;
	readonly encoding: 'utf8' | 'latin1';
	/** Where the line starts in the file, in bytes. */
	readonly offset: number;
	/** Its length in bytes, without the `\n`. */
	readonly bytes: number;
}

const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/** A `\u` escape that a one-byte reading would confuse with a raw byte. */
const BYTE_RANGE_ESCAPE = /\\u00[89a-fA-F]/;

/** The line in the reading its fields can be taken from as they are: UTF-8, or `latin1` without byte-range escapes. */
export function exactLine(line: RawLine): RawLine {
	return line.encoding === 'latin1' && BYTE_RANGE_ESCAPE.test(line.text) ? toUtf8Line(line) : line;
}

/** The same line decoded as UTF-8 (a `latin1` line's characters are its bytes). */
export function toUtf8Line(line: RawLine): RawLine {
	return line.encoding === 'utf8' ? line : { ...line, text: utf8Of(line.text), encoding: 'utf8' };
}

/** How the strings of one parsed line are read: its string values, and the keys of an object whose values are read in order. */
export interface LineReading {
	/** A string value of the line as its UTF-8 reading has it (meaningless once `needsUtf8`). */
	readonly text: (value: string) => string;
	/** Checks the keys of an object whose entries (or values, in order) are read. */
	readonly keys: (object: Record<string, unknown>) => void;
	/** True once a string or a key was met that this reading cannot give exactly: read the line again as UTF-8. */
	readonly needsUtf8: boolean;
}

/** A `utf8` line's strings are read as they are: one reading for every such line, no object per entry. */
const AS_WRITTEN: LineReading = { text: (value) => value, keys: () => undefined, needsUtf8: false };

/** How the strings of `line` are read, for a reader that reads them all through `text` and `keys` (`entryFacts`). */
export function lineReading(line: RawLine): LineReading {
	return line.encoding === 'utf8' ? AS_WRITTEN : new Latin1Reading(line);
}

/**
 * The strings of a `latin1` line as its UTF-8 reading has them. An ASCII string is read as it is;
 * any other is turned back into its UTF-8 text, unless the line holds a byte-range escape (looked
 * for once, on the first such string): then `needsUtf8`. The keys of an object whose entries are
 * read are checked too: two keys that differ in one reading may be one key in the other (invalid
 * bytes are all U+FFFD in UTF-8), so a key that is not ASCII also asks for the UTF-8 reading.
 */
class Latin1Reading implements LineReading {
	needsUtf8 = false;
	private escapes: boolean | undefined;

	constructor(private readonly line: RawLine) {}

	readonly text = (value: string): string => {
		if (isAscii(value)) {
			return value;
		}
		this.escapes ??= BYTE_RANGE_ESCAPE.test(this.line.text);
		if (this.escapes) {
			this.needsUtf8 = true;
			return value;
		}
		return decodeByteRuns(value);
	};

	readonly keys = (object: Record<string, unknown>): void => {
		if (!this.needsUtf8 && Object.keys(object).some((name) => !isAscii(name))) {
			this.needsUtf8 = true;
		}
	};
}

/** `JSON.parse` of the line, or undefined when it does not parse (Pi drops such a line). */
export function parseLine(line: RawLine): unknown {
	try {
		return JSON.parse(line.text) as unknown;
	} catch {
		return undefined;
	}
}

function utf8Of(text: string): string {
	return isAscii(text) ? text : decodeByteRuns(text);
}

/** A text with characters of 0x80 or more, its runs of byte-characters decoded as UTF-8 (see the file comment). */
function decodeByteRuns(text: string): string {
	let out = '';
	let runStart = -1;
	for (let i = 0; i <= text.length; i++) {
		const code = i < text.length ? text.charCodeAt(i) : 0x100;
		if (code <= 0xff) {
			if (runStart < 0) {
				runStart = i;
			}
			continue;
		}
		if (runStart >= 0) {
			out += decodeByteRun(text, runStart, i);
			runStart = -1;
		}
		if (i < text.length) {
			out += text.charAt(i);
		}
	}
	return out;
}

function decodeByteRun(text: string, start: number, end: number): string {
	const bytes = new Uint8Array(end - start);
	for (let i = start; i < end; i++) {
		bytes[i - start] = text.charCodeAt(i);
	}
	return utf8.decode(bytes);
}

// eslint-disable-next-line no-control-regex -- every character below 0x80 is ASCII, the controls included
const NON_ASCII = /[^\u0000-\u007f]/u;

/** True when every character is below 0x80 (then both readings agree). */
export function isAscii(text: string): boolean {
	return !NON_ASCII.test(text);
}
