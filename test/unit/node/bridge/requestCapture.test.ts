/**
 * The bridge keeps the text of its last few requests, not only the last: VS Code fetches each request
 * after Pi made it, and Pi may already be making the next one (a tool call answered at once).
 */
import assert from 'node:assert/strict';
import { RECENT_REQUESTS, RequestCapture } from '../../../../bridge/requestCapture';
import { runSteps } from '../../../../src/engine/steps';

function textOf(capture: RequestCapture, seq: number): string | undefined {
	let text = '';
	const steps = capture.textSteps(seq, 'messages', (piece) => (text += piece));
	return steps && runSteps(steps) ? text : undefined;
}

describe('the bridge\'s request capture', () => {
	it(`serves the text of the last ${RECENT_REQUESTS} requests, and says no for older ones`, () => {
		const capture = new RequestCapture();
		const facts = { sessionFile: '/s.jsonl', leafId: null, model: undefined, systemPrompt: 'You are Pi.' };
		for (let i = 1; i <= RECENT_REQUESTS + 2; i++) {
			capture.onContext([{ role: 'user', content: `prompt ${i}` }], facts, i);
		}
		const last = RECENT_REQUESTS + 2;
		assert.equal(textOf(capture, last), JSON.stringify([{ role: 'user', content: `prompt ${last}` }]));
		assert.equal(textOf(capture, 3), JSON.stringify([{ role: 'user', content: 'prompt 3' }]));
		assert.equal(textOf(capture, 2), undefined);
		assert.equal(textOf(capture, last + 1), undefined);
	});
});
