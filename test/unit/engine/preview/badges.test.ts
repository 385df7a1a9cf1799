import assert from 'node:assert/strict';
import { previewWithRows } from './allRows';
import { resolveConfig } from '../../../../src/engine/config/resolve';
import { snapshotBaseSteps } from '../../../../src/engine/preview';
import { assistant, call, record, result, BranchBuilder, text, thinking, user } from '../condense/builders';
import { deepFreeze } from '../condense/piReference';
import { R200 } from '../../../support/releases';
import { runSteps } from '../../../../src/engine/steps';

describe('badges for purged arguments, protection and errors', () => {
	const big = { path: 'src/a.ts', oldText: 'x'.repeat(600), newText: 'y' };
	const s = new BranchBuilder()
		.message(user(1))
		.message(assistant(2, thinking('plan'), call('e1', 'edit', big)))
		.message(result('e1', 'edit', 3, 'Could not find the exact text', true))
		.message(assistant(4, call('r1', 'read', { path: 'home/skills/git/SKILL.md' })))
		.message(result('r1', 'read', 5, '# skill'))
		.index(record('r1', 'read', '# skill', { args: { path: 'home/skills/git/SKILL.md' } }))
		.message(assistant(6, text('done')))
		.message(user(7))
		.message(assistant(8, text('ok')));
	// A release with the thinking strip (2.0.0), so both assistant badges show.
	const { config } = resolveConfig({ enabled: true, purgeErrors: { cooldownTurns: 1, minArgChars: 100 }, thinkingStrip: { enabled: true, keepLastTurns: 1 } }, R200);
	const base = runSteps(snapshotBaseSteps({ sessionPath: '', title: '', branch: deepFreeze(s.branch), messages: deepFreeze(s.context), config, rules: R200 }));
	const { snapshot } = previewWithRows(base, { overrides: {}, pricing: undefined, now: 1 });

	it('marks purged arguments and stripped thinking on the assistant that issued the failed call', () => {
		const row = snapshot.after[1];
		assert.deepEqual(row?.badges.map((b) => b.kind), ['purgedArgs', 'thinkingStripped']);
		const block = row?.blocks[0];
		assert.ok(block?.kind === 'toolCall');
		assert.equal(block.purgedSize, JSON.stringify(big).length);
	});

	it('marks the error result and a summarized result that a protected path keeps verbatim', () => {
		assert.deepEqual(snapshot.after[2]?.badges.map((b) => b.kind), ['error']);
		const protectedRow = snapshot.after[4];
		assert.deepEqual(protectedRow?.badges.map((b) => b.kind), ['protected']);
		assert.match(protectedRow?.badges[0]?.detail ?? '', /protected now/);
		assert.equal(protectedRow?.counterpart, 4);
	});

	it('marks nothing when pruning is off', () => {
		const off = runSteps(snapshotBaseSteps({ sessionPath: '', title: '', branch: s.branch, messages: s.context, config: { ...config, enabled: false }, rules: R200 }));
		const rows = previewWithRows(off, { overrides: {}, pricing: undefined, now: 1 }).snapshot.after;
		assert.deepEqual(rows.flatMap((r) => r.badges.map((b) => b.kind)), ['error', 'protected']);
		assert.equal(rows.length, s.context.length);
	});
});
