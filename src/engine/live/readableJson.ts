/**
 * JSON written for reading and for diffs: two spaces a level, every key in one fixed order (the
 * ones that say what a thing is first, `role`, `type`, names and ids, then the rest sorted), and
 * every string longer than a line or holding a line break folded into a list of its pieces (split
 * after each line break and every `FOLD_CHARS` characters), with a comment saying so. The same value
 * is always written the same way, so two requests' texts differ only where their values do. The
 * result is JSON with comments (JSONC): valid, and free of anything VS Code would flag. Pure, in steps.
 *
 * @example
 * runSteps(readableJsonSteps({ text: 'a\nb', role: 'user' }, 0))
 * // {
 * //   "role": "user",
 * //   "text": [ // a string of 3 characters, folded: join the pieces
 * //     "a\n",
 * //     "b"
 * //   ]
 * // }
 */
import { Pacer, type Steps } from '../steps';

/** The longest string written on one line, and the longest piece of a folded one. */
export const FOLD_CHARS = 100;

/** Keys that say what an object is: written first, in this order. */
const LEADING_KEYS = ['role', 'type', 'customType', 'toolName', 'name', 'id', 'toolCallId'];

/** The keys of an object in the order they are written. */
export function keyOrder(record: Readonly<Record<string, unknown>>): string[] {
	const keys = Object.keys(record).filter((key) => record[key] !== undefined);
	const leading = LEADING_KEYS.filter((key) => keys.includes(key));
	return [...leading, ...keys.filter((key) => !LEADING_KEYS.includes(key)).sort()];
}

/** A long string's pieces: after every line break, and every `FOLD_CHARS` characters (never inside a surrogate pair). */
export function foldPieces(text: string): string[] {
	const pieces: string[] = [];
	let start = 0;
	while (start < text.length) {
		const newline = text.indexOf('\n', start);
		const lineEnd = newline < 0 ? text.length : newline + 1;
		let end = Math.min(lineEnd, start + FOLD_CHARS);
		const code = text.charCodeAt(end - 1);
		if (end < lineEnd && code >= 0xd800 && code <= 0xdbff && end - 1 > start) {
			end--;
		}
		pieces.push(text.slice(start, end));
		start = end;
	}
	return pieces;
}

const folds = (text: string): boolean => text.length > FOLD_CHARS || (text.includes('\n') && text.length > 1);

function groupedCount(n: number): string {
	return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** Lines joined a few thousand at a time: no single join copies a whole document of megabytes. */
const JOIN_LINES = 2048;

export class LineSink {
	private lines: string[] = [];
	private joined: string | undefined;

	push(line: string): void {
		this.lines.push(line);
		if (this.lines.length >= JOIN_LINES) {
			this.flush();
		}
	}

	/** The lines so far, one after another (a concatenation: the copy is left to whoever reads it). */
	text(): string {
		this.flush();
		return this.joined ?? '';
	}

	private flush(): void {
		if (this.lines.length > 0) {
			const chunk = this.lines.join('\n');
			this.joined = this.joined === undefined ? chunk : `${this.joined}\n${chunk}`;
			this.lines = [];
		}
	}
}

/**
 * The lines of `value` written at `level` (two spaces each): the first line starts with `prefix`
 * (after the indentation: a key, or nothing) and the last ends with `suffix` (a comma, or nothing).
 */
function* writeSteps(value: unknown, level: number, prefix: string, suffix: string, out: LineSink, pacer: Pacer): Steps<void> {
	const indent = '  '.repeat(level);
	if (typeof value === 'string' && folds(value)) {
		out.push(`${indent}${prefix}[ // a string of ${groupedCount(value.length)} characters, folded: join the pieces`);
		const pieces = foldPieces(value);
		for (let i = 0; i < pieces.length; i++) {
			out.push(`${indent}  ${JSON.stringify(pieces[i])}${i < pieces.length - 1 ? ',' : ''}`);
			if (pacer.due(FOLD_CHARS)) {
				yield;
			}
		}
		out.push(`${indent}]${suffix}`);
		return;
	}
	if (value === null || typeof value !== 'object') {
		out.push(`${indent}${prefix}${JSON.stringify(value) ?? 'null'}${suffix}`);
		if (pacer.due(16)) {
			yield;
		}
		return;
	}
	if (Array.isArray(value)) {
		if (value.length === 0) {
			out.push(`${indent}${prefix}[]${suffix}`);
			return;
		}
		out.push(`${indent}${prefix}[`);
		for (let i = 0; i < value.length; i++) {
			yield* writeSteps(value[i] ?? null, level + 1, '', i < value.length - 1 ? ',' : '', out, pacer);
		}
		out.push(`${indent}]${suffix}`);
		return;
	}
	const record = value as Record<string, unknown>;
	const keys = keyOrder(record);
	if (keys.length === 0) {
		out.push(`${indent}${prefix}{}${suffix}`);
		return;
	}
	out.push(`${indent}${prefix}{`);
	for (let i = 0; i < keys.length; i++) {
		const key = keys[i] as string;
		yield* writeSteps(record[key], level + 1, `${JSON.stringify(key)}: `, i < keys.length - 1 ? ',' : '', out, pacer);
	}
	out.push(`${indent}}${suffix}`);
}

/** `value` written for reading at `level`, its first line starting with `prefix`, its last ending with `suffix`. */
export function* readableJsonSteps(value: unknown, level: number, prefix = '', suffix = '', pacer = new Pacer()): Steps<string> {
	const out = new LineSink();
	yield* writeSteps(value, level, prefix, suffix, out, pacer);
	return out.text();
}
