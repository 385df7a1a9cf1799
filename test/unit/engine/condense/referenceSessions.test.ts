import assert from 'node:assert/strict';
import { join } from 'node:path';
import { buildCondenseState } from '../../../../src/engine/condense/state/buildCondenseState';
import { renderContext } from '../../../../src/engine/condense/render/renderContext';
import type { AgentMessage } from '../../../../src/engine/session/types';
import { deepFreeze, loadSession, loadWithPi, readJson, REFERENCE_DIR, referenceConfig } from './piReference';

describe('reference sessions written by real pi-condense 2.0.0', () => {
	for (const folder of ['basic', 'large-bulk']) {
		it(`reproduces ${folder}/expected-context.json exactly`, () => {
			const loaded = loadSession(join(REFERENCE_DIR, folder, 'session.jsonl'));
			const expected = readJson<AgentMessage[]>(join(REFERENCE_DIR, folder, 'expected-context.json'));
			const messages = deepFreeze(loaded.messages);
			const state = buildCondenseState(deepFreeze(loaded.branch), { lineOf: (e) => loaded.model.lineOf(e) });
			const diagnostics: string[] = [];
			const rendered = renderContext(messages, state, referenceConfig(folder), (d) => diagnostics.push(d.message));
			assert.deepEqual(state.diagnostics, []);
			assert.deepEqual(diagnostics, []);
			assert.notDeepEqual(loaded.messages, expected, 'the reference must differ from Pi\'s own context');
			assert.equal(rendered.length, expected.length);
			rendered.forEach((message, i) => assert.deepEqual(message, expected[i], `message ${i}`));
		});
	}

	it('renders the same from Pi\'s own reading of the sessions', async () => {
		for (const folder of ['basic', 'large-bulk']) {
			const loaded = await loadWithPi(join(REFERENCE_DIR, folder, 'session.jsonl'));
			const expected = readJson<AgentMessage[]>(join(REFERENCE_DIR, folder, 'expected-context.json'));
			assert.deepEqual(renderContext(loaded.messages, buildCondenseState(loaded.branch), referenceConfig(folder)), expected);
		}
	});
});
