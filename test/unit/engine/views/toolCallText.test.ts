/**
 * The sidebar's one-line call texts: long arguments are cut, and the cut text holds on to nothing
 * else (a slice of the serialized arguments kept every written file alive as long as its row).
 */
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { argumentsText, toolCallLabel } from '../../../../src/engine/views/toolCallText';

describe('toolCallText', () => {
	it('cuts long arguments to the bound, with an ellipsis', () => {
		assert.equal(argumentsText({ path: 'a.ts' }), 'path="a.ts"');
		const long = argumentsText({ path: 'src/x.ts', content: 'y'.repeat(500) });
		assert.equal(long.length, 72);
		assert.ok(long.startsWith('path="src/x.ts", content="yyy') && long.endsWith('…'), long);
		assert.equal(toolCallLabel('write', { path: 'a.ts' }, 1234, 'chars', true), 'write(path="a.ts") · 1.2k chars [error]');
	});

	it('keeps no part of the serialized arguments alive once they are cut', () => {
		setFlagsFromString('--expose-gc');
		const collect = runInNewContext('gc') as () => void;
		collect();
		const before = process.memoryUsage().heapUsed;
		// Each call writes a 1 MB file; only the short labels are kept.
		const labels = Array.from({ length: 40 }, (_, i) => argumentsText({ path: `f${i}.txt`, content: String(i).repeat(1_000_000) }));
		collect();
		const grown = process.memoryUsage().heapUsed - before;
		assert.equal(labels.length, 40);
		assert.ok(grown < 8_000_000, `the labels hold ${(grown / 1e6).toFixed(1)} MB (40 MB if each kept its serialized arguments)`);
	});
});
