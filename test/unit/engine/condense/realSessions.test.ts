import assert from 'node:assert/strict';
import { join } from 'node:path';
import { renderContextSteps } from '../../../../src/engine/condense/render/renderContext';
import { buildCondenseStateSteps } from '../../../../src/engine/condense/state/buildCondenseState';
import { realSessionsDir } from '../../../support/paths';
import { deepFreeze, loadSession, loadWithPi } from './piReference';
import { defaults, LATEST } from '../../../support/releases';
import { runSteps } from '../../../../src/engine/steps';

const REAL_SESSIONS = [
	'large-session.jsonl',
	'large-session.migrated-v3.jsonl',
	'before-compaction.jsonl',
	'before-compaction.migrated-v3.jsonl',
	'pi-0.73.1-all-entry-types.synthetic.jsonl',
];

describe('real sessions without pi-condense entries', () => {
	for (const file of REAL_SESSIONS) {
		it(`${file} renders to exactly Pi's own context with pruning enabled (2.9.1: its orphan sweep finds nothing)`, async () => {
			const loaded = loadSession(join(realSessionsDir, file));
			const pi = await loadWithPi(join(realSessionsDir, file));
			assert.deepEqual(loaded.messages, pi.messages);
			const messages = deepFreeze(loaded.messages);
			const state = runSteps(buildCondenseStateSteps(loaded.branch, LATEST));
			const config = { ...defaults(LATEST), enabled: true };
			assert.ok(messages.length > 0);
			assert.equal(state.records.size, 0);
			assert.equal(runSteps(renderContextSteps(messages, state, config, LATEST)), messages);
		});
	}
});
