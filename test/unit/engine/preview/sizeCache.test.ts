import assert from 'node:assert/strict';
import { join } from 'node:path';
import { contextBreakdown, measureReclaim, renderContext, buildCondenseState } from '../../../../src/engine/condense';
import { cachedSizeOf } from '../../../../src/engine/preview';
import { loadSession, REFERENCE_DIR, referenceConfig } from '../condense/piReference';
import { R200 } from '../../../support/releases';

describe('measures from cached sizes', () => {
	for (const folder of ['basic', 'large-bulk']) {
		it(`equal the engine's own measures on ${folder}`, () => {
			const loaded = loadSession(join(REFERENCE_DIR, folder, 'session.jsonl'));
			const after = renderContext(loaded.messages, buildCondenseState(loaded.branch, R200), referenceConfig(folder, R200), R200);
			const sizeOf = cachedSizeOf();
			assert.deepEqual(contextBreakdown(loaded.messages, sizeOf), contextBreakdown(loaded.messages));
			assert.deepEqual(contextBreakdown(after, sizeOf), contextBreakdown(after));
			assert.deepEqual(measureReclaim(loaded.messages, after, sizeOf), { beforeChars: JSON.stringify(loaded.messages).length, afterChars: JSON.stringify(after).length });
			assert.equal(contextBreakdown([], sizeOf).total, 2);
		});
	}
});
