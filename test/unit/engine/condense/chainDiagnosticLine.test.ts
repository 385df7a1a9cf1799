/**
 * A chain whose timestamps match nothing is left raw by 2.6.0+, which reports `unresolved-range`
 * with its own detail text; ours also carries the line of the chain's entry, so the user can find it.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { previewContextSteps } from '../../../../src/engine/condense';
import { buildSessionContextSteps, getBranchSteps, parseSessionSteps } from '../../../../src/engine/session';
import { piCondenseSessionsDir } from '../../../support/paths';
import { defaults, LATEST } from '../../../support/releases';
import { runSteps } from '../../../../src/engine/steps';

describe('chain diagnostics', () => {
	it('name the line of a chain entry whose range matches nothing', () => {
		const lines = readFileSync(join(piCondenseSessionsDir, 'basic', 'session.jsonl'), 'utf8').split('\n');
		const at = lines.findIndex((line) => line.includes('"blockId":"b1"'));
		lines[at] = (lines[at] as string).replace(/"startUserTimestamp":\d+/, '"startUserTimestamp":12345');
		const model = runSteps(parseSessionSteps(lines.join('\n')));
		const preview = runSteps(previewContextSteps(runSteps(getBranchSteps(model)), runSteps(buildSessionContextSteps(model)).messages, { ...defaults(LATEST), enabled: true }, LATEST, { lineOf: (entry) => model.lineOf(entry) }));
		assert.deepEqual(preview.diagnostics, [{ kind: 'unresolved-range', dedupKey: 'b1', detail: 'blockId=b1 start=12345 final=1796020564504', line: at + 1 }]);
	});
});
