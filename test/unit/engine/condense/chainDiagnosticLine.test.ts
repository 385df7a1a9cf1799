/**
 * The fuzzer's "chains whose timestamps match nothing" are left raw with a render diagnostic; the
 * diagnostic now names the line of the chain's entry, so the user can find it in the file.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { previewContext } from '../../../../src/engine/condense';
import { DEFAULT_CONFIG } from '../../../../src/engine/config/defaults';
import { buildSessionContext, getBranch, parseSession } from '../../../../src/engine/session';
import { piCondenseSessionsDir } from '../../../support/paths';

describe('chain diagnostics', () => {
	it('name the line of a chain entry whose range matches nothing', () => {
		const lines = readFileSync(join(piCondenseSessionsDir, 'basic', 'session.jsonl'), 'utf8').split('\n');
		const at = lines.findIndex((line) => line.includes('"blockId":"b1"'));
		lines[at] = (lines[at] as string).replace(/"startUserTimestamp":\d+/, '"startUserTimestamp":12345');
		const model = parseSession(lines.join('\n'));
		const preview = previewContext(getBranch(model), buildSessionContext(model).messages, { ...DEFAULT_CONFIG, enabled: true }, { lineOf: (entry) => model.lineOf(entry) });
		assert.deepEqual(preview.diagnostics.map((d) => d.message), [`chain b1 (line ${at + 1}): no unique range from user@12345 to assistant@1796020564504; left raw`]);
	});
});
