/**
 * Every regular expression applied to session or model text outside the glob matcher and the label
 * rewrite (which have their own suites), on its worst input: the content-hash normalization, the
 * session list's folder names, the offline summarizer's line tests, chain-body placeholders, the
 * preview's chain and purge markers and its search. The loops that replaced quadratic regexes are
 * checked against those regexes on seeded random text.
 */
import assert from 'node:assert/strict';
import { normalizeForHash } from '../../src/engine/flush/contentHash';
import { collapsedWhitespace } from '../../src/base/boundedText';
import { normalizeFolder } from '../../src/engine/views/sessionList';
import { describeLinearTime } from '../support/linearTimeSuite';
import { Random } from '../support/random';

describeLinearTime('regular expressions on session and model text run in linear time', 'text');

describe('the linear replacements agree with the regular expressions they replace (seeded)', () => {
	// Every character `\s` matches, and a few it does not.
	const whitespace = [...'\t\n\v\f\r \u00a0\u1680\u2000\u2005\u200a\u2028\u2029\u202f\u205f\u3000\ufeff'];
	const parts = [...whitespace, 'a', 'b', '/', '\\', '\r\n', '\u200b', '\u0085', 'xy z'];
	const random = new Random(77);
	const samples = Array.from({ length: 20_000 }, () => Array.from({ length: random.int(0, 12) }, () => random.pick(parts)).join(''));

	it('content hash: trimEnd strips what /\\s+$/ strips', () => {
		for (const text of samples) {
			const expected = text.replace(/\r\n/g, '\n').split('\n').map((line) => line.replace(/\s+$/, '')).join('\n').trim();
			assert.equal(normalizeForHash(text), expected, JSON.stringify(text));
		}
	});

	it('collapsed whitespace: shorten(text.replace(/\\s+/g, " ").trim(), max)', () => {
		for (const text of samples) {
			const max = random.int(1, 12);
			const collapsed = text.replace(/\s+/g, ' ').trim();
			const expected = collapsed.length <= max ? collapsed : `${collapsed.slice(0, max - 1)}…`;
			assert.equal(collapsedWhitespace(text, max), expected, JSON.stringify([text, max]));
		}
	});

	it('session folders: trailing separators removed as /[\\\\/]+$/ removes them', () => {
		for (const text of samples) {
			assert.equal(normalizeFolder(text), text.length > 1 ? text.replace(/[\\/]+$/, '') : text, JSON.stringify(text));
		}
	});
});
