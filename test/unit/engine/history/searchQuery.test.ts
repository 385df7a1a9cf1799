import assert from 'node:assert/strict';
import { printable, searchQuery, snippetOf } from '../../../../src/engine/history/searchQuery';
import { separateSpaceless } from '../../../../src/engine/history/spacelessScripts';

describe('history search: the query and the snippet', () => {
	it('quotes every word (FTS5 syntax typed is only text), all words required, prefixes from three characters', () => {
		assert.deepEqual(searchQuery('Build failed'), { match: '"Build"* "failed"*', words: ['build', 'failed'] });
		assert.equal(searchQuery('a "quoted" NEAR(x) OR').match, '"a" "quoted"* "NEAR(x"* "OR"');
		assert.equal(searchQuery('  ... -- !!').match, '');
		assert.equal(searchQuery('say "hi"').match, '"say"* "hi"');
	});

	it('searches a Chinese or Japanese word as a phrase of its characters, as the index holds them; the snippet marks it as typed', () => {
		assert.deepEqual(searchQuery('检索 Reactコンポーネント'), { match: '"检  索" "React コ  ン  ポ  ー  ネ  ン  ト"*', words: ['检索', 'reactコンポーネント'] });
		assert.equal(separateSpaceless('データベースを検索する'), ' デ  ー  タ  ベ  ー  ス  を  検  索  す  る ');
		assert.equal(separateSpaceless('데이터 naïve plain'), '데이터 naïve plain', 'Korean (spaced) and other scripts as they are');
		assert.equal(separateSpaceless('𠀋 ｶﾀｶﾅ'), ' 𠀋   ｶ  ﾀ  ｶ  ﾅ ');
		assert.deepEqual(snippetOf('我们在数据库中检索记录', ['检索']).marks, [[7, 9]]);
	});

	it('centres the snippet on the rarest word and marks every occurrence', () => {
		const text = `bash: ${'filler words here '.repeat(30)}and then the kubernetes error showed up in bash`;
		const snippet = snippetOf(text, ['bash', 'kubernetes']);
		assert.ok(snippet.text.startsWith('…'));
		const marked = snippet.marks.map(([start, end]) => snippet.text.slice(start, end));
		assert.deepEqual(marked, ['kubernetes', 'bash']);
	});

	it('shows control characters (a terminal escape) as spaces, on one line', () => {
		assert.equal(printable('a\u001b[31mred\u001b[0m\nb\tc'), 'a [31mred [0m b c');
		assert.ok(![...snippetOf('x\u001b]0;title\u0007y', ['x']).text].some((char) => char.charCodeAt(0) < 0x20));
	});
});
