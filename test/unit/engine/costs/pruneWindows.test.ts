/**
 * Each prune measured on a window of the context gives exactly what two renders of the whole branch give
 * (`fullRenderMeasures`, the definition, written plainly): on every reference session written by real
 * pi-condense, and on a real session pruned every few turns by our own flush, read as each release renders
 * it (stubs by bare id or by occurrence, chains by id or by position, the thinking strip by count and by
 * boundary, the orphan sweep with and without barriers).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { releaseDefaults } from '../../../../src/engine/config/defaults';
import { pruneMeasuresSteps, sessionTimelineSteps } from '../../../../src/engine/costs';
import { releaseRules, type ReleaseRules } from '../../../../src/engine/release/releases';
import { parseSessionSteps } from '../../../../src/engine/session';
import { runSteps } from '../../../../src/engine/steps';
import { flushedSessionText } from '../../../support/flushedSession';
import { fullRenderMeasures } from '../../../support/fullRenderMeasures';
import { piCondenseSessionsDir, realSessionsDir } from '../../../support/paths';
import { referenceReleases } from '../../../support/releases';

function compare(text: string, rules: ReleaseRules, label: string): number {
	const model = runSteps(parseSessionSteps(text));
	const timeline = runSteps(sessionTimelineSteps(model.entries));
	const config = { ...releaseDefaults(rules), enabled: true, thinkingStrip: { enabled: true, keepLastTurns: 3 } };
	const inputs = { model, timeline, rules, config };
	const ours = runSteps(pruneMeasuresSteps(inputs));
	const reference = fullRenderMeasures(inputs);
	assert.deepEqual(ours.epochs.map((epoch) => ({ request: epoch.request, removed: [...epoch.removed] })), reference.map((epoch) => ({ request: epoch.request, removed: [...epoch.removed] })), label);
	return ours.prunes.length;
}

describe('costs: each prune measured on a window, as on the whole branch', function () {
	this.timeout(300_000);

	for (const [folder, rules] of referenceReleases()) {
		it(`${folder} (pi-condense ${rules.version})`, () => {
			compare(readFileSync(join(piCondenseSessionsDir, folder, 'session.jsonl'), 'utf8'), rules, folder);
		});
	}

	it('a real session pruned every 24 lines by our flush, read as every kind of release reads it', async () => {
		const text = await flushedSessionText({ source: join(realSessionsDir, 'large-session.migrated-v3.jsonl'), every: 24, lines: 480 });
		for (const version of ['2.0.0', '2.4.2', '2.4.3', '2.5.0', '2.6.0', '2.9.1'] as const) {
			const prunes = compare(text, releaseRules(version), version);
			assert.ok(prunes >= 15, `${version}: ${prunes} prunes`);
		}
	});

	it('pruned every 11 lines with the narrowest chain window, and a branch switch that leaves a flush behind', async () => {
		const text = await flushedSessionText({ source: join(realSessionsDir, 'large-session.migrated-v3.jsonl'), every: 11, lines: 700, rollingWindow: 1, branchAfter: 4 });
		assert.ok(runSteps(sessionTimelineSteps(runSteps(parseSessionSteps(text)).entries)).markers.some((marker) => marker.kind === 'branch-switch'));
		for (const version of ['2.4.2', '2.6.0', '2.9.1'] as const) {
			compare(text, releaseRules(version), version);
		}
	});

	it('a real session with a compaction, pruned every 30 lines: after the compaction every prune is measured again', async () => {
		const text = await flushedSessionText({ source: join(realSessionsDir, 'before-compaction.migrated-v3.jsonl'), every: 30, lines: 1300, rollingWindow: 3 });
		assert.ok(runSteps(sessionTimelineSteps(runSteps(parseSessionSteps(text)).entries)).markers.some((marker) => marker.kind === 'compaction'));
		for (const version of ['2.5.0', '2.9.1'] as const) {
			compare(text, releaseRules(version), version);
		}
	});
});
