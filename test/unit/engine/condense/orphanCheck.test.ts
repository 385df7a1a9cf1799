import assert from 'node:assert/strict';
import { checkOrphans } from '../../../../src/engine/condense/phases/orphanCheck';
import { assistant, call, result, text, user } from './builders';
import { deepFreeze } from './piReference';

describe('checkOrphans', () => {
	const before = deepFreeze([user(1), assistant(2, call('a', 'bash'), call('b', 'bash')), result('a', 'bash', 3, 'A'), result('b', 'bash', 3, 'B'), assistant(4, text('ok'))]);

	it('returns the transformed array itself when nothing new is orphaned', () => {
		const after = before.slice(0, 4);
		assert.equal(checkOrphans(before, after), after);
		assert.equal(checkOrphans(before, before), before);
	});

	it('removes a tool result whose call the transform dropped', () => {
		const reports: string[] = [];
		const after = [before[0], result('a', 'bash', 3, 'A'), before[4]] as typeof before;
		const out = checkOrphans(before, after, (d) => reports.push(d.kind));
		assert.deepEqual(out.map((m) => m.role), ['user', 'assistant']);
		assert.deepEqual(reports, ['orphan-result']);
	});

	it('reports a call that lost its result', () => {
		const reports: string[] = [];
		const after = [before[0], before[1], before[2], before[4]] as typeof before;
		assert.equal(checkOrphans(before, after, (d) => reports.push(d.kind)), after);
		assert.deepEqual(reports, ['orphan-call']);
	});

	it('leaves orphans that Pi\'s own context already had', () => {
		const broken = deepFreeze([user(1), result('x', 'bash', 2, 'stray'), assistant(3, call('y', 'bash')), user(4), assistant(5, text('z'))]);
		const after = broken.slice(0, 4);
		assert.equal(checkOrphans(broken, after), after);
	});

	it('treats an interrupting user message as the end of the call group', () => {
		const interrupted = deepFreeze([user(1), assistant(2, call('a', 'bash')), user(3), result('a', 'bash', 4, 'late')]);
		const after = [interrupted[1], interrupted[2], interrupted[3]] as typeof interrupted;
		assert.equal(checkOrphans(interrupted, after), after);
	});
});
