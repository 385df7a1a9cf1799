import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { buildCondenseState } from '../../../../src/engine/condense/state/buildCondenseState';
import { renderContext } from '../../../../src/engine/condense/render/renderContext';
import type { DefectWarning, ReleaseDiagnostic } from '../../../../src/engine/condense/phases/renderReport';
import type { AgentMessage } from '../../../../src/engine/session/types';
import { referenceReleases } from '../../../support/releases';
import { deepFreeze, loadSession, loadWithPi, readJson, REFERENCE_DIR, referenceConfig } from './piReference';

const releases = referenceReleases();
const folders = readdirSync(REFERENCE_DIR).filter((name) => existsSync(join(REFERENCE_DIR, name, 'expected-context.json'))).sort();

describe('reference sessions written by real Pi with real pi-condense, each under its own release', () => {
	it('every folder has its release in the README', () => {
		assert.ok(folders.length >= 5, `${folders.length} folders`);
		assert.deepEqual(folders.filter((folder) => !releases.has(folder)), []);
	});

	for (const folder of folders) {
		it(`reproduces ${folder}/expected-context.json exactly (our parser)`, () => {
			const release = releases.get(folder);
			assert.ok(release);
			const loaded = loadSession(join(REFERENCE_DIR, folder, 'session.jsonl'));
			const expected = readJson<AgentMessage[]>(join(REFERENCE_DIR, folder, 'expected-context.json'));
			const state = buildCondenseState(deepFreeze(loaded.branch), release, { lineOf: (e) => loaded.model.lineOf(e) });
			const diagnostics: ReleaseDiagnostic[] = [];
			const warnings: DefectWarning[] = [];
			const rendered = renderContext(deepFreeze(loaded.messages), state, referenceConfig(folder, release), release, {
				diagnostic: (d) => diagnostics.push(d),
				warning: (w) => warnings.push(w),
			});
			assert.deepEqual(state.diagnostics, []);
			assert.deepEqual(diagnostics, []);
			assert.notDeepEqual(loaded.messages, expected, 'the reference must differ from Pi\'s own context');
			rendered.slice(0, expected.length).forEach((message, i) => assert.deepEqual(message, expected[i], `message ${i}`));
			assert.equal(rendered.length, expected.length);
			if (folder !== 'recovery-2.0.0') {
				assert.deepEqual(warnings, []);
			}
		});
	}

	it('recovery-2.0.0: the live turn 2.0.0 drops is sent as it drops it, and a warning names the defect', () => {
		const release = releases.get('recovery-2.0.0');
		assert.ok(release);
		const loaded = loadSession(join(REFERENCE_DIR, 'recovery-2.0.0', 'session.jsonl'));
		const warnings: DefectWarning[] = [];
		const rendered = renderContext(loaded.messages, buildCondenseState(loaded.branch, release), referenceConfig('recovery-2.0.0', release), release, { warning: (w) => warnings.push(w) });
		assert.equal(rendered.length, 24);
		const defect = warnings.find((w) => w.kind === 'chain-drops-live-turn');
		assert.ok(defect, JSON.stringify(warnings));
		assert.equal(defect.release, '2.0.0');
		assert.equal(defect.fixedIn, '2.6.0');
		assert.match(defect.message, /2\.6\.0/);
	});

	it('renders the same from Pi\'s own reading of the sessions', async () => {
		for (const folder of folders) {
			const release = releases.get(folder);
			assert.ok(release);
			const loaded = await loadWithPi(join(REFERENCE_DIR, folder, 'session.jsonl'));
			const expected = readJson<AgentMessage[]>(join(REFERENCE_DIR, folder, 'expected-context.json'));
			assert.deepEqual(renderContext(loaded.messages, buildCondenseState(loaded.branch, release), referenceConfig(folder, release), release), expected, folder);
		}
	});
});
