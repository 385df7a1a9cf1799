/**
 * What a user types into search, as an FTS5 query and as words to mark in a snippet. Every word is
 * quoted (FTS5's own syntax never reaches the database from what was typed), all words must occur,
 * and words of MIN_PREFIX_CHARS or more also match as the start of a longer word (`error` finds
 * `errors`). A word of Chinese or Japanese is searched as a phrase of its characters, as they are
 * indexed (`spacelessScripts.ts`). Pure.
 */
import { separateSpaceless } from './spacelessScripts';

const MIN_PREFIX_CHARS = 3;

/** Longest query kept: a pasted page is searched by its first words. */
const MAX_WORDS = 16;

export interface SearchQuery {
	/** The FTS5 MATCH expression; empty when there is nothing to search for. */
	readonly match: string;
	/** The words, lower case, to mark in a snippet. */
	readonly words: readonly string[];
}

export function searchQuery(input: string): SearchQuery {
	const words = input.split(/\s+/u).map((word) => word.replace(/^[\p{P}\p{S}]+|[\p{P}\p{S}]+$/gu, '')).filter((word) => /[\p{L}\p{N}]/u.test(word)).slice(0, MAX_WORDS);
	const match = words.map((word) => `"${separateSpaceless(word).trim().replace(/"/g, '""')}"${[...word].length >= MIN_PREFIX_CHARS ? '*' : ''}`).join(' ');
	return { match, words: words.map((word) => word.toLowerCase()) };
}

export interface Snippet {
	readonly text: string;
	/** Where the words are in `text`: [start, end) pairs, in order. */
	readonly marks: readonly (readonly [number, number])[];
}

/**
 * About `width` characters of `text` around the first place the rarest of `words` occurs (ignoring case),
 * on one line, with every occurrence in it marked; the start of the text when none is found (the
 * index's tokenizer also folds accents, which this does not).
 */
export function snippetOf(text: string, words: readonly string[], width = 160): Snippet {
	const flat = printable(text);
	const lower = flat.toLowerCase();
	// Around the rarest word found (a tool name at the start of every tool message says little).
	let first = -1;
	let fewest = Number.POSITIVE_INFINITY;
	for (const word of words) {
		const at = lower.indexOf(word);
		const count = at < 0 || word === '' ? 0 : lower.split(word).length - 1;
		if (at >= 0 && (count < fewest || (count === fewest && at < first))) {
			first = at;
			fewest = count;
		}
	}
	const start = first < 0 ? 0 : Math.max(0, first - Math.floor(width / 3));
	const end = Math.min(flat.length, start + width);
	const prefix = start > 0 ? '…' : '';
	const suffix = end < flat.length ? '…' : '';
	const body = flat.slice(start, end);
	const marks: [number, number][] = [];
	const bodyLower = body.toLowerCase();
	for (const word of words) {
		for (let at = bodyLower.indexOf(word); at >= 0 && word !== ''; at = bodyLower.indexOf(word, at + word.length)) {
			marks.push([prefix.length + at, prefix.length + at + word.length]);
		}
	}
	marks.sort((a, b) => a[0] - b[0]);
	return { text: `${prefix}${body}${suffix}`, marks: mergeMarks(marks) };
}

/** `text` on one line, with control characters (a terminal's escape sequences among them) shown as spaces. */
export function printable(text: string): string {
	// eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
	return text.replace(/[\u0000-\u001f\u007f-\u009f\s]+/gu, ' ').trim();
}

function mergeMarks(marks: readonly [number, number][]): [number, number][] {
	const merged: [number, number][] = [];
	for (const mark of marks) {
		const last = merged.at(-1);
		if (last && mark[0] <= last[1]) {
			last[1] = Math.max(last[1], mark[1]);
		} else {
			merged.push([mark[0], mark[1]]);
		}
	}
	return merged;
}
