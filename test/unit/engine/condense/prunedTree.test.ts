import assert from 'node:assert/strict';
import { join } from 'node:path';
import { buildCondenseStateSteps } from '../../../../src/engine/condense/state/buildCondenseState';
import { buildPrunedTreeSteps, summaryNodeLabel } from '../../../../src/engine/condense/tree/prunedTree';
import { statsText } from '../../../../src/engine/condense/tree/statsText';
import { assistant, call, record, result, BranchBuilder, user } from './builders';
import { loadSession, REFERENCE_DIR } from './piReference';
import { R200 } from '../../../support/releases';
import { runSteps } from '../../../../src/engine/steps';

describe('/pruner tree model', () => {
	it('lists each summary with its tool calls, labelled as pi-condense does', () => {
		const { branch } = loadSession(join(REFERENCE_DIR, 'basic', 'session.jsonl'));
		const tree = runSteps(buildPrunedTreeSteps(runSteps(buildCondenseStateSteps(branch, R200))));
		assert.deepEqual(tree.map((n) => n.header), [
			'[pruner] Turn 0 summary (2 tools · 190 chars · original 690)',
			'[pruner] Turn 1 summary (2 tools · 166 chars · original 524)',
			'[pruner] Turn 4 summary (2 tools · 181 chars · original 445)',
			'[pruner] Turn 8 summary (1 tool · 158 chars · original 738)',
		]);
		assert.deepEqual(tree[0]?.children.map((c) => c.label), ['bash(command="ls -la . src logs") · 649 chars', 'bash(command="wc -l src/app.js src/util.js") · 41 chars']);
		assert.equal(tree[2]?.children[0]?.label, 'edit(path="src/app.js", edits=[{"oldText":"function greet(name) {","newText":"function sayHello(name) {"},{"oldText":"shout(greet(who))","newText":"shout(sayHello(who))"}]) · 47 chars');
		assert.equal(summaryNodeLabel(tree[0], (ms) => new Date(ms).toISOString()), `${tree[0]?.header} · 2026-11-30T06:36:04.468Z`);
		assert.ok((tree[0]?.children[0]?.preview.length ?? 0) <= 200 && !/\s\s/.test(tree[0]?.children[0]?.preview ?? ''));
	});

	it('labels spilled sizes in bytes and errors with [error]', () => {
		const s = new BranchBuilder().messages(user(1), assistant(2, call('s', 'bash'), call('e', 'edit')), result('s', 'bash', 3, 'x'), result('e', 'edit', 3, 'no', true))
			.summary('x', [['t1', 's'], ['t2', 'e']]).index(record('s', 'bash', '', { spillBytes: 5276, spillPath: '/b/s.txt' }), record('e', 'edit', 'no', { isError: true, args: { path: 'a' } }));
		const [node] = runSteps(buildPrunedTreeSteps(runSteps(buildCondenseStateSteps(s.branch, R200))));
		assert.deepEqual(node?.children.map((c) => c.label), ['bash() · 5.3k bytes', 'edit(path="a") · 2 chars [error]']);
	});
});

describe('/pruner stats text', () => {
	it('matches pi-condense', () => {
		assert.equal(statsText(undefined), 'pruner stats: no summarizer calls yet.');
		assert.equal(statsText({ totalInputTokens: 0, totalOutputTokens: 0, totalCost: 0, callCount: 0, chainsCompressed: 0, rangesSummarized: 0 }), 'pruner stats: no summarizer calls yet.');
		assert.equal(statsText({ totalInputTokens: 1932, totalOutputTokens: 98, totalCost: 0.0004, callCount: 6, chainsCompressed: 2, rangesSummarized: 1 }),
			'pruner stats:\n  calls:       6\n  input:       1.9k tokens\n  output:      98 tokens\n  cost:        <$0.001\n  chains:      2 compressed');
		assert.equal(statsText({ totalInputTokens: 10, totalOutputTokens: 2, totalCost: 0.0123, callCount: 1, chainsCompressed: 0, rangesSummarized: 0 }),
			'pruner stats:\n  calls:       1\n  input:       10 tokens\n  output:      2 tokens\n  cost:        $0.012');
	});
});
