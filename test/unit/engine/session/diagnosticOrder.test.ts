/**
 * Regression (fuzz seeds 1449, 1517, …): a cold read listed every JSON error before every entry
 * problem, while a read in steps (the watcher's) listed them chunk by chunk, so the two models
 * differed. Diagnostics are now in line order in both.
 */
import assert from 'node:assert/strict';
import { appendToSession, parseSessionSteps, splitJsonlLines } from '../../../../src/engine/session';
import { SessionBuilder } from '../../../support/sessionBuilder';
import { runSteps } from '../../../../src/engine/steps';

describe('session diagnostics order', () => {
	const builder = new SessionBuilder();
	builder.entry({ type: 'model_change', provider: 7, modelId: 'x' });
	builder.rawLine('{"type":"message", broken');
	builder.user('fine');
	builder.entry({ type: 'label', targetId: 5 });
	builder.rawLine('not json either');
	const text = builder.text();

	it('lists problems by line in a cold read', () => {
		assert.deepEqual(runSteps(parseSessionSteps(text)).diagnostics.map((d) => [d.line, d.severity]), [[2, 'warning'], [3, 'error'], [5, 'warning'], [6, 'error']]);
	});

	it('gives the same list when the file is read in steps, wherever it is cut', () => {
		const cold = runSteps(parseSessionSteps(text)).diagnostics;
		for (let cut = 0; cut <= text.length; cut++) {
			const first = runSteps(parseSessionSteps(text.slice(0, cut)));
			const rest = text.slice(splitJsonlLines(text.slice(0, cut)).consumedLength);
			const stepped = appendToSession(first, rest);
			if (stepped !== undefined) {
				assert.deepEqual(stepped.diagnostics, cold, `cut at ${cut}`);
			}
		}
	});
});
