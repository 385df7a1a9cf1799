/**
 * Read-back verification of our lines after a write.
 */
import assert from 'node:assert/strict';
import { verifyWrittenTailSteps, type ExpectedLine } from '../../../../src/engine/write';
import { runSteps } from '../../../../src/engine/steps';

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
const ours = (id: string): ExpectedLine => ({ id, bytes: encode(`{"type":"custom","customType":"x","id":"${id}","parentId":null}\n`) });
const foreign = (n: number): string => `{"type":"message","id":"f${n}"}\n`;
const text = (line: ExpectedLine): string => new TextDecoder().decode(line.bytes);

describe('write: tail verification', () => {
	const a = ours('aaaaaaaa');
	const b = ours('bbbbbbbb');

	it('accepts our lines in order, with other writers\' lines after them', () => {
		const result = runSteps(verifyWrittenTailSteps(encode(text(a) + text(b) + foreign(1)), [a, b]));
		assert.equal(result.ok, true);
		assert.equal(result.foreignLinesAfter, 1);
		assert.equal(result.endsMidLine, false);
	});

	it('reports foreign lines before or between ours, per line', () => {
		const before = runSteps(verifyWrittenTailSteps(encode(foreign(1) + text(a) + text(b)), [a, b]));
		assert.equal(before.ok, false);
		assert.deepEqual(before.lines.map((l) => [l.status, l.foreignLinesBefore]), [['after-foreign-lines', 1], ['intact', 0]]);
		const between = runSteps(verifyWrittenTailSteps(encode(text(a) + foreign(1) + foreign(2) + text(b)), [a, b]));
		assert.deepEqual(between.lines.map((l) => [l.status, l.foreignLinesBefore]), [['intact', 0], ['after-foreign-lines', 2]]);
	});

	it('tells a missing line from a damaged (merged) one', () => {
		const merged = text(a).slice(0, -1) + foreign(1);
		const damaged = runSteps(verifyWrittenTailSteps(encode(merged + text(b)), [a, b]));
		assert.deepEqual(damaged.lines.map((l) => l.status), ['damaged', 'intact']);
		const missing = runSteps(verifyWrittenTailSteps(encode(text(b)), [a, b]));
		assert.deepEqual(missing.lines.map((l) => l.status), ['missing', 'intact']);
		const cut = runSteps(verifyWrittenTailSteps(encode(text(a).slice(0, 20)), [a]));
		assert.deepEqual([cut.lines[0]?.status, cut.endsMidLine], ['missing', true]);
	});

	it('reports lines out of order', () => {
		const result = runSteps(verifyWrittenTailSteps(encode(text(b) + text(a)), [a, b]));
		assert.deepEqual(result.lines.map((l) => l.status), ['after-foreign-lines', 'out-of-order']);
		assert.equal(result.ok, false);
	});

	it('compares bytes, not decoded text', () => {
		const unicode = { id: 'cccccccc', bytes: encode('{"id":"cccccccc","t":"é \u2028"}\n') };
		assert.equal(runSteps(verifyWrittenTailSteps(unicode.bytes, [unicode])).ok, true);
		const altered = encode('{"id":"cccccccc","t":"e\u0301 \u2028"}\n');
		assert.equal(runSteps(verifyWrittenTailSteps(altered, [unicode])).lines[0]?.status, 'damaged');
	});
});
