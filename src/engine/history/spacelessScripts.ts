/**
 * Chinese and Japanese are written without spaces between words, and the index's tokenizer
 * (SQLite's unicode61) makes one token of a whole run of their characters: a word inside a sentence
 * could not be found, only a run's start. So each such character is made a token of its own, in the
 * texts indexed and in the words searched (a quoted word becomes a phrase of those tokens, which FTS5
 * finds only in a row): a search finds any run of them, as a substring. Pure.
 */

/** Hiragana, Katakana (with its marks and phonetic extensions, half-width too) and Han ideographs. */
const SPACELESS_CHARACTER = '[\\u3040-\\u30ff\\u31f0-\\u31ff\\u3400-\\u4dbf\\u4e00-\\u9fff\\uf900-\\ufaff\\uff66-\\uff9f\\u{20000}-\\u{3134f}]';
const HAS_SPACELESS = new RegExp(SPACELESS_CHARACTER, 'u');
const EACH_SPACELESS = new RegExp(SPACELESS_CHARACTER, 'gu');

/** `text` with a space on each side of every such character; the same string when it has none (most texts). */
export function separateSpaceless(text: string): string {
	return HAS_SPACELESS.test(text) ? text.replace(EACH_SPACELESS, ' $& ') : text;
}
