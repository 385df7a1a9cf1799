import assert from 'node:assert/strict';
import { conversationOf } from '../../../../src/engine/session/systemMessages';
import { join } from 'node:path';
import { contextBreakdownSteps, measureReclaimSteps, renderContextSteps, buildCondenseStateSteps } from '../../../../src/engine/condense';
import { measuredContextSteps } from '../../../../src/engine/condense/measure/contextSize';
import { cacheImpactSteps, computePreviewSteps, snapshotBaseSteps } from '../../../../src/engine/preview';
import { runSteps } from '../../../../src/engine/steps';
import { loadSession, REFERENCE_DIR, referenceConfig } from '../condense/piReference';
import { LATEST, R200 } from '../../../support/releases';
import { pruneStatusText } from '../../../../src/engine/condense/measure/statusText';
import { tokenBars, tokenTotals } from '../../../../src/engine/preview/tokenBars';
import { sanitizeOverrides, withWhatIf } from '../../../../src/engine/preview/whatIf';

describe('the preview measures by position', () => {
	for (const folder of ['basic', 'large-bulk']) {
		it(`measures each message and the breakdown as the engine's own measures on ${folder}`, () => {
			const loaded = loadSession(join(REFERENCE_DIR, folder, 'session.jsonl'));
			const after = runSteps(renderContextSteps(loaded.messages, runSteps(buildCondenseStateSteps(loaded.branch, R200)), referenceConfig(folder, R200), R200));
			const raw = runSteps(measuredContextSteps(loaded.messages));
			for (const messages of [loaded.messages, after, []]) {
				// Measured afresh, and from the raw context's table where a message is the same object.
				const measures = [runSteps(measuredContextSteps(messages)), runSteps(measuredContextSteps(messages, { table: raw, indexOf: (message) => loaded.messages.indexOf(message) }))];
				for (const measured of measures) {
					const blocks = (type: string): number[] => messages.map((message) => message.role === 'assistant'
						? message.content.filter((block) => block.type === type).reduce((sum, block) => sum + JSON.stringify(block).length, 0)
						: 0);
					assert.deepEqual(measured.breakdown, runSteps(contextBreakdownSteps(messages)));
					assert.equal(measured.breakdown.total, JSON.stringify(messages).length);
					assert.deepEqual([...measured.sizes], messages.map((message) => JSON.stringify(message).length));
					assert.deepEqual([...measured.assistantText], blocks('text'));
					assert.deepEqual([...measured.thinking], blocks('thinking'));
					assert.deepEqual([...measured.toolCalls], blocks('toolCall'));
				}
			}
		});

		for (const rules of [R200, LATEST]) {
			it(`gives rows, status and refs the sizes JSON.stringify gives on ${folder}, ${rules.version}`, () => {
				const loaded = loadSession(join(REFERENCE_DIR, folder, 'session.jsonl'));
				const config = referenceConfig(folder, rules);
				const base = runSteps(snapshotBaseSteps({ sessionPath: 's', title: 't', branch: loaded.branch, messages: loaded.messages, config, rules }));
				for (const overrides of [{}, { 'chainCompression.rollingWindow': 0 }]) {
					const { snapshot, views, rows } = runSteps(computePreviewSteps(base, { overrides, pricing: undefined, now: 0 }));
					const before = runSteps(contextBreakdownSteps(views.before));
					const sent = runSteps(contextBreakdownSteps(views.after));
					assert.equal(snapshot.statusText, pruneStatusText(withWhatIf(config, sanitizeOverrides(overrides)), runSteps(measureReclaimSteps(views.before, views.after))));
					assert.deepEqual(snapshot.bars, tokenBars(before, sent));
					const conversation = runSteps(measureReclaimSteps(conversationOf(views.before), conversationOf(views.after))) ?? { beforeChars: JSON.stringify(conversationOf(views.before)).length, afterChars: JSON.stringify(conversationOf(views.before)).length };
					assert.deepEqual(snapshot.totals, tokenTotals(before, sent, views.before.length, views.after.length, conversation));
					assert.deepEqual(snapshot.cache, runSteps(cacheImpactSteps({
						next: views.after, nextRaw: views.before, previous: base.previousSent, previousRaw: base.previousRaw, usage: base.reply?.usage,
						previousCallAt: base.reply?.timestamp, pricing: undefined, sizeOf: (message) => JSON.stringify(message).length,
					})));
					assert.ok(folder === 'basic' || base.previousSent !== undefined, 'a session with a previous call');
					for (const view of ['before', 'after'] as const) {
						rows.all(view).forEach((row, i) => assert.equal(row.chars, JSON.stringify(views[view][i]).length, `${view} row ${i}`));
					}
					for (const row of rows.all('before')) {
						if (row.stub) {
							assert.equal(row.stub.originalChars, row.chars);
						}
					}
				}
			});
		}
	}
});
