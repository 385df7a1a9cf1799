/**
 * pi-condense's rendering of the reference sessions, each under the release that wrote it, against the
 * context that release returned from Pi's `context` event (`expected-context.json`), from our reading of
 * the file and from Pi's own (0.73.1 for the Pi 0.7x–0.8x sessions, 1.6.0 for the Pi 1.6.0 ones); and,
 * for Pi 1.x, what Pi 1.6.0 itself sends around that result (its system messages restored).
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { buildCondenseStateSteps } from '../../../../src/engine/condense/state/buildCondenseState';
import { renderContextSteps } from '../../../../src/engine/condense/render/renderContext';
import type { DefectWarning, ReleaseDiagnostic } from '../../../../src/engine/condense/phases/renderReport';
import { conversationOf } from '../../../../src/engine/session/systemMessages';
import type { AgentMessage, ContextMessage } from '../../../../src/engine/session/types';
import { readWithPi16 } from '../../../support/pi16';
import { referencePiVersions, referenceReleases } from '../../../support/releases';
import { deepFreeze, loadSession, loadWithPi, readJson, REFERENCE_DIR, referenceConfig } from './piReference';
import { runSteps } from '../../../../src/engine/steps';

const releases = referenceReleases();
const folders = readdirSync(REFERENCE_DIR).filter((name) => existsSync(join(REFERENCE_DIR, name, 'expected-context.json'))).sort();
const piVersions = referencePiVersions();
/** Folders written by Pi 1.x, whose files Pi 0.73.1 does not read as their Pi does. */
const pi1Folders = new Set(folders.filter((folder) => (piVersions.get(folder) ?? '0').startsWith('1.')));

describe('reference sessions written by real Pi with real pi-condense, each under its own release', () => {
	it('every folder has its release in the README', () => {
		assert.ok(folders.length >= 5, `${folders.length} folders`);
		assert.deepEqual(folders.filter((folder) => !releases.has(folder)), []);
	});

	for (const folder of folders) {
		it(`reproduces ${folder}/expected-context.json exactly (our parser)`, () => {
			const rules = releases.get(folder);
			assert.ok(rules);
			const loaded = loadSession(join(REFERENCE_DIR, folder, 'session.jsonl'));
			const expected = readJson<AgentMessage[]>(join(REFERENCE_DIR, folder, 'expected-context.json'));
			const state = runSteps(buildCondenseStateSteps(deepFreeze(loaded.branch), rules, { lineOf: (e) => loaded.model.lineOf(e) }));
			const diagnostics: ReleaseDiagnostic[] = [];
			const warnings: DefectWarning[] = [];
			const rendered = runSteps(renderContextSteps(deepFreeze(loaded.messages), state, referenceConfig(folder, rules), rules, {
				diagnostic: (d) => diagnostics.push(d),
				warning: (w) => warnings.push(w),
			}));
			assert.deepEqual(state.diagnostics, []);
			assert.deepEqual(diagnostics, []);
			assert.notDeepEqual(conversationOf(loaded.messages), expected, 'the reference must differ from Pi\'s own context');
			// pi-condense returns the conversation; Pi's system messages (Pi 1.x) are Pi's to put back.
			const returned = conversationOf(rendered);
			returned.slice(0, expected.length).forEach((message, i) => assert.deepEqual(message, expected[i], `message ${i}`));
			assert.equal(returned.length, expected.length);
			assert.equal(loaded.messages.some((message) => message.role === 'system'), pi1Folders.has(folder), 'Pi 1.x sessions, and only they, hold system messages');
			if (folder !== 'recovery-2.0.0') {
				assert.deepEqual(warnings, []);
			}
		});
	}

	it('recovery-2.0.0: the live turn 2.0.0 drops is sent as it drops it, and a warning names the defect', () => {
		const rules = releases.get('recovery-2.0.0');
		assert.ok(rules);
		const loaded = loadSession(join(REFERENCE_DIR, 'recovery-2.0.0', 'session.jsonl'));
		const warnings: DefectWarning[] = [];
		const rendered = runSteps(renderContextSteps(loaded.messages, runSteps(buildCondenseStateSteps(loaded.branch, rules)), referenceConfig('recovery-2.0.0', rules), rules, { warning: (w) => warnings.push(w) }));
		assert.equal(rendered.length, 24);
		const defect = warnings.find((w) => w.kind === 'chain-drops-live-turn');
		assert.ok(defect, JSON.stringify(warnings));
		assert.equal(defect.release, '2.0.0');
		assert.equal(defect.fixedIn, '2.6.0');
		assert.match(defect.message, /2\.6\.0/);
	});

	it('renders the same from Pi 0.73.1\'s own reading of the Pi 0.7x–0.8x sessions', async () => {
		for (const folder of folders.filter((name) => !pi1Folders.has(name))) {
			const rules = releases.get(folder);
			assert.ok(rules);
			const loaded = await loadWithPi(join(REFERENCE_DIR, folder, 'session.jsonl'));
			const expected = readJson<AgentMessage[]>(join(REFERENCE_DIR, folder, 'expected-context.json'));
			assert.deepEqual(runSteps(renderContextSteps(loaded.messages, runSteps(buildCondenseStateSteps(loaded.branch, rules)), referenceConfig(folder, rules), rules)), expected, folder);
		}
	});

	describe('Pi 1.6.0 sessions, with Pi 1.6.0\'s own code', function () {
		this.timeout(120_000);

		it('renders the same from Pi 1.6.0\'s reading, and sends what Pi 1.6.0 sends around pi-condense\'s result', async () => {
			const pi1 = [...pi1Folders];
			assert.deepEqual(pi1, ['batching-pi-1.6.0', 'context-edits-pi-1.6.0']);
			const sessionOf = (folder: string): string => join(REFERENCE_DIR, folder, 'session.jsonl');
			const expectedOf = (folder: string): AgentMessage[] => readJson<AgentMessage[]>(join(REFERENCE_DIR, folder, 'expected-context.json'));
			const readings = await readWithPi16(pi1.map((folder) => ({ path: sessionOf(folder), sent: expectedOf(folder) })));
			pi1.forEach((folder, i) => {
				const rules = releases.get(folder);
				const reading = readings[i];
				assert.ok(rules && reading && reading.restored, folder);
				const ours = loadSession(sessionOf(folder));
				const config = referenceConfig(folder, rules);
				const fromPi = runSteps(renderContextSteps(reading.context.messages as ContextMessage[], runSteps(buildCondenseStateSteps(ours.branch, rules)), config, rules));
				assert.deepEqual(conversationOf(fromPi), expectedOf(folder), `${folder}: from Pi's reading`);
				const sent = runSteps(renderContextSteps(ours.messages, runSteps(buildCondenseStateSteps(ours.branch, rules)), config, rules));
				assert.deepEqual(JSON.parse(JSON.stringify(sent)), reading.restored, `${folder}: what Pi sends`);
				assert.equal(sent[0]?.role, 'system', `${folder}: one leading system message`);
				assert.equal(sent.filter((message) => message.role === 'system').length, 1, folder);
			});
		});
	});
});
