/**
 * Stranded detection: after Pi appended more, are our entries still on the active path?
 */
import assert from 'node:assert/strict';
import { parseSessionSteps } from '../../../../src/engine/session';
import { checkWrittenEntriesSteps } from '../../../../src/engine/write';
import { SessionBuilder, text } from '../../../support/sessionBuilder';
import { runSteps } from '../../../../src/engine/steps';

function base(): { builder: SessionBuilder; piLeaf: string; ours: string[] } {
	const builder = new SessionBuilder();
	builder.user('hello');
	const piLeaf = builder.assistant([text('hi')]);
	const ours = [
		builder.entry({ type: 'custom', customType: 'context-prune-index', data: {} }),
		builder.entry({ type: 'custom_message', customType: 'context-prune-summary', content: 's', display: false }),
	];
	return { builder, piLeaf, ours };
}

describe('write: stranded detection', () => {
	it('is the leaf when nothing came after our entries', () => {
		const { builder, ours } = base();
		assert.deepEqual(runSteps(checkWrittenEntriesSteps(runSteps(parseSessionSteps(builder.text())), ours)), { kind: 'leaf' });
	});

	it('is continued when Pi (reopened) chained from our last entry', () => {
		const { builder, ours } = base();
		builder.user('next');
		builder.assistant([text('ok')]);
		assert.deepEqual(runSteps(checkWrittenEntriesSteps(runSteps(parseSessionSteps(builder.text())), ours)), { kind: 'continued', laterEntries: 2 });
	});

	it('is stranded when a still-running Pi chained from its own old leaf', () => {
		const { builder, piLeaf, ours } = base();
		builder.branchFrom(piLeaf);
		const diverging = builder.user('next');
		builder.assistant([text('ok')]);
		assert.deepEqual(runSteps(checkWrittenEntriesSteps(runSteps(parseSessionSteps(builder.text())), ours)), {
			kind: 'stranded', laterEntries: 2, stranded: ours, stillOnPath: [], firstDivergingEntryId: diverging,
		});
	});

	it('keeps the part of our batch that is still on the path', () => {
		const { builder, ours } = base();
		builder.branchFrom(ours[0] as string);
		const diverging = builder.user('next');
		const state = runSteps(checkWrittenEntriesSteps(runSteps(parseSessionSteps(builder.text())), ours));
		assert.deepEqual(state, { kind: 'stranded', laterEntries: 1, stranded: [ours[1]], stillOnPath: [ours[0]], firstDivergingEntryId: diverging });
	});

	it('reports ids that are gone', () => {
		const { builder, ours } = base();
		assert.deepEqual(runSteps(checkWrittenEntriesSteps(runSteps(parseSessionSteps(builder.text())), [...ours, 'feedf00d'])), { kind: 'missing', missing: ['feedf00d'] });
	});
});
