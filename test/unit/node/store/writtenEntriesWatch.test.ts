import assert from 'node:assert/strict';
import { parseSessionSteps } from '../../../../src/engine/session';
import { WrittenEntriesWatch } from '../../../../src/node/store/writtenEntriesWatch';
import { SessionBuilder } from '../../../support/sessionBuilder';
import { runSteps } from '../../../../src/engine/steps';
import { testWork } from '../../../support/testWork';

function ours(builder: SessionBuilder): string[] {
	return [
		builder.entry({ type: 'custom', customType: 'context-prune-index', data: { toolCalls: [] } }),
		builder.entry({ type: 'custom', customType: 'context-prune-stats', data: {} }),
	];
}

describe('WrittenEntriesWatch', () => {
	it('reports entries stranded on a side branch once', async () => {
		const builder = new SessionBuilder();
		const before = builder.user('hi');
		const ids = ours(builder);
		const watch = new WrittenEntriesWatch(testWork);
		watch.track('/s.jsonl', ids);
		assert.equal(await watch.check('/s.jsonl', runSteps(parseSessionSteps(builder.text()))), undefined, 'still the leaf: nothing to say yet');
		builder.branchFrom(before); // Pi, unaware of our entries, continues from its own leaf
		builder.user('next prompt');
		const stranded = await watch.check('/s.jsonl', runSteps(parseSessionSteps(builder.text())));
		assert.equal(stranded?.kind, 'stranded');
		assert.deepEqual(stranded?.stranded, ids);
		assert.equal(await watch.check('/s.jsonl', runSteps(parseSessionSteps(builder.text()))), undefined, 'reported once');
		assert.equal(watch.isTracked('/s.jsonl'), false);
	});

	it('stops watching once Pi continues from our entries', async () => {
		const builder = new SessionBuilder();
		builder.user('hi');
		const watch = new WrittenEntriesWatch(testWork);
		watch.track('/s.jsonl', ours(builder));
		builder.user('next prompt');
		assert.equal(await watch.check('/s.jsonl', runSteps(parseSessionSteps(builder.text()))), undefined);
		assert.equal(watch.isTracked('/s.jsonl'), false);
	});
});
