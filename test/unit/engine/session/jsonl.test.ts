import assert from 'node:assert/strict';
import { splitJsonlLines } from '../../../../src/engine/session/jsonl';

describe('splitJsonlLines', () => {
	it('keeps 1-based line numbers and skips blank lines', () => {
		const result = splitJsonlLines('{"a":1}\n\n  \n{"b":2}\n');
		assert.deepEqual(result.lines, [{ text: '{"a":1}', line: 1 }, { text: '{"b":2}', line: 4 }]);
		assert.equal(result.pendingTail, '');
		assert.equal(result.consumedLineCount, 4);
	});

	it('never reads an unterminated last line', () => {
		const result = splitJsonlLines('{"a":1}\n{"b":');
		assert.deepEqual(result.lines.map((l) => l.text), ['{"a":1}']);
		assert.equal(result.pendingTail, '{"b":');
		assert.equal(result.consumedLength, '{"a":1}\n'.length);
	});

	it('splits on \\n only, not on U+2028 or U+2029', () => {
		const text = '{"t":"a\u2028b\u2029c"}\n';
		assert.deepEqual(splitJsonlLines(text).lines.map((l) => l.text), ['{"t":"a\u2028b\u2029c"}']);
	});

	it('drops a byte-order mark before the first line, as Pi\'s trim() does', () => {
		assert.equal(splitJsonlLines('\uFEFF{"a":1}\n').lines[0]?.text, '{"a":1}');
		assert.equal(splitJsonlLines('\n\uFEFF{"a":1}\n').lines[0]?.text, '{"a":1}');
	});

	it('keeps a carriage return (JSON.parse accepts it as whitespace)', () => {
		assert.equal(splitJsonlLines('{"a":1}\r\n').lines[0]?.text, '{"a":1}\r');
	});

	it('numbers lines from the given offset when reading an appended chunk', () => {
		const result = splitJsonlLines('{"c":3}\n', 10);
		assert.equal(result.lines[0]?.line, 10);
	});
});
