import assert from 'node:assert/strict';
import { previewWithRows } from './allRows';
import { join } from 'node:path';
import { contextBreakdownSteps, charsToTokens, previewContextSteps } from '../../../../src/engine/condense';
import { locateTarget, snapshotBaseSteps, type PreviewRow } from '../../../../src/engine/preview';
import type { AgentMessage } from '../../../../src/engine/session/types';
import { deepFreeze, loadSession, readJson, REFERENCE_DIR, referenceConfig } from '../condense/piReference';
import { defaults, R200 } from '../../../support/releases';
import { assistant, call, chain, result, BranchBuilder, text, user } from '../condense/builders';
import { runSteps } from '../../../../src/engine/steps';

const labels = (row: PreviewRow | undefined): string[] => row?.badges.map((b) => b.label) ?? [];

function basic() {
	const loaded = loadSession(join(REFERENCE_DIR, 'basic', 'session.jsonl'));
	const config = referenceConfig('basic', R200);
	const branch = deepFreeze(loaded.branch);
	const messages = deepFreeze(loaded.messages);
	const base = runSteps(snapshotBaseSteps({ sessionPath: '/s.jsonl', title: 'basic', branch, messages, config, rules: R200 }));
	return { loaded, config, base, ...previewWithRows(base, { overrides: {}, pricing: undefined, now: 1 }) };
}

describe('preview rows of a session written by real pi-condense', () => {
	it('shows exactly the context pi-condense sent, message by message', () => {
		const { snapshot, views } = basic();
		const expected = readJson<AgentMessage[]>(join(REFERENCE_DIR, 'basic', 'expected-context.json'));
		assert.deepEqual(views.after, expected);
		assert.equal(snapshot.after.length, expected.length);
		assert.deepEqual(snapshot.after.map((r) => r.chars), expected.map((m) => JSON.stringify(m).length));
		assert.deepEqual(snapshot.after.map((r) => r.kind), [
			'user', 'chain', 'assistant', 'user', 'chain', 'assistant', 'user', 'assistant', 'toolResult', 'assistant', 'toolResult', 'summary', 'assistant', 'user', 'assistant',
		]);
	});

	it('marks chains, stubs, aliases, summaries and stripped thinking', () => {
		const { snapshot } = basic();
		const rows = snapshot.after;
		// "Compressed chain" (its role) · b1 (its title) · what it dropped (its badge): each said once.
		assert.deepEqual([rows[1]?.title, ...labels(rows[1])], ['b1', '4 calls dropped']);
		assert.deepEqual([rows[4]?.title, labels(rows[4]).length], ['b2', 1]);
		assert.match(labels(rows[4])[0] ?? '', /^\d+ calls? dropped$/);
		assert.deepEqual(labels(rows[2]), ['thinking stripped']);
		assert.deepEqual(labels(rows[8]), ['alias → t4']);
		assert.equal(rows[8]?.stub?.aliasOf, 'call_p0_t1_1');
		assert.deepEqual(labels(rows[10]), ['stub t8']);
		assert.equal(rows[10]?.stub?.toolName, 'context_tree_query');
		assert.match(rows[10]?.stub?.head ?? '', /## toolRef: t1/);
		assert.deepEqual(labels(rows[11]), ['summary']);
		assert.match(rows[1]?.blocks[0]?.kind === 'markdown' ? rows[1].blocks[0].text.text : '', /^<compressed-chain id="b1" tools="t1,t2,t3,t4">/);
	});

	it('pairs the two views and says where each raw message went', () => {
		const { snapshot } = basic();
		assert.equal(snapshot.before.length, 29);
		for (const [i, row] of snapshot.after.entries()) {
			if (row.counterpart !== undefined) {
				assert.equal(snapshot.before[row.counterpart]?.counterpart, i);
				assert.equal(snapshot.before[row.counterpart]?.key, row.key);
			} else {
				assert.equal(row.kind, 'chain');
			}
		}
		assert.deepEqual(labels(snapshot.before[2]), ['dropped → b1']);
		assert.deepEqual(labels(snapshot.before[12]), ['dropped → b2', 'error']);
		assert.deepEqual(labels(snapshot.before[7]), ['summary', 'hidden']);
		assert.equal(snapshot.before[0]?.entryId, '197f08d3');
		assert.equal(snapshot.before[28]?.entryId, 'c9291328');
		assert.equal(snapshot.before[25]?.entryId, '26c0ec88', 'a custom message maps to its custom_message entry');
	});

	it('bounds texts and hides extra blocks, saying so', () => {
		const loaded = loadSession(join(REFERENCE_DIR, 'basic', 'session.jsonl'));
		const base = runSteps(snapshotBaseSteps({ sessionPath: '', title: '', branch: loaded.branch, messages: loaded.messages, config: referenceConfig('basic', R200), rules: R200 }));
		const { snapshot } = previewWithRows(base, { overrides: {}, pricing: undefined, now: 1, bounds: { blockChars: 10, blocks: 1 } });
		const chain = snapshot.after[1];
		assert.equal(chain?.blocks.length, 1);
		assert.equal(chain?.truncated, true);
		const block = chain?.blocks[0];
		assert.ok(block && block.kind === 'markdown');
		assert.equal(block.text.text.length, 10);
		assert.ok(block.text.total > 10);
		const twoCalls = snapshot.before.find((row) => row.blocks.length === 1 && row.hiddenBlocks > 0);
		assert.ok(twoCalls, 'an assistant with several blocks keeps one and counts the rest');
	});

	it('measures like the engine: bars, totals and the status text', () => {
		const { snapshot, loaded, config } = basic();
		const engine = runSteps(previewContextSteps(loaded.branch, loaded.messages, config, R200));
		const before = runSteps(contextBreakdownSteps(engine.before));
		const after = runSteps(contextBreakdownSteps(engine.after));
		assert.equal(snapshot.statusText, engine.statusText);
		assert.equal(snapshot.statusText, 'prune: ON · 5.1k->1.1k (-78%)');
		assert.equal(snapshot.totals.beforeTokens, charsToTokens(before.total));
		assert.equal(snapshot.totals.afterTokens, charsToTokens(after.total));
		assert.equal(snapshot.totals.reclaimedTokens, charsToTokens(before.total) - charsToTokens(after.total));
		for (const bar of snapshot.bars) {
			assert.equal(bar.beforeTokens, charsToTokens(before[bar.category]), bar.category);
			assert.equal(bar.afterTokens, charsToTokens(after[bar.category]), bar.category);
		}
		assert.equal(snapshot.usage?.input, 1255);
		assert.equal(snapshot.usage?.model, 'fake-model');
	});

	it('lists the refs the page can hover: tN of the state and the blocks', () => {
		const { snapshot } = basic();
		assert.deepEqual(snapshot.refs.map((r) => r.ref), ['t1', 't2', 't3', 't4', 't6', 't7', 't8', 'b1', 'b2']);
		assert.deepEqual(snapshot.refs.find((r) => r.ref === 'b2')?.toolCallIds, ['call_p1_t0_0', 'call_p1_t1_0', 'call_p1_t1_1', 'call_p1_t2_0']);
	});

	it('locates refs, blocks, tool-call ids and entry ids', () => {
		const { rows, base } = basic();
		assert.deepEqual(locateTarget('t8', rows, base.state), { view: 'after', index: 10 });
		assert.deepEqual(locateTarget('t3', rows, base.state), { view: 'after', index: 1 }, 'a call dropped by b1 shows as b1');
		assert.deepEqual(locateTarget('b2', rows, base.state), { view: 'after', index: 4 });
		assert.deepEqual(locateTarget('bd944c95', rows, base.state), { view: 'after', index: 9 });
		assert.deepEqual(locateTarget('5ba5ef96', rows, base.state), { view: 'before', index: 7 }, 'a hidden summary shows in the raw view');
		assert.equal(locateTarget('nothing-like-this', rows, base.state), undefined);
	});
});

describe('preview rows of a release with defects', () => {
	it('keep row keys unique when 2.0.0 inserts a chain\'s synthetic after two user messages, and carry the warnings', () => {
		const s = new BranchBuilder()
			.messages(user(100, 'a'), assistant(110, call('c1', 'bash')), result('c1', 'bash', 111, 'x'), assistant(150, text('one')))
			.messages(user(100, 'same timestamp'), assistant(160, call('c1', 'bash')), result('c1', 'bash', 161, 'live'), assistant(170, text('two')))
			.chain(chain('b1', 100, 150, { droppedToolCallIds: ['c1'], rangeSummaryText: 'r' }));
		const base = runSteps(snapshotBaseSteps({ sessionPath: '', title: '', branch: s.branch, messages: s.context, config: { ...defaults(R200), enabled: true }, rules: R200 }));
		const { snapshot } = previewWithRows(base, { overrides: {}, pricing: undefined, now: 1 });
		const keys = snapshot.after.map((row) => row.key);
		assert.deepEqual(keys.filter((key) => key.startsWith('bb1')), ['bb1', 'bb1~1']);
		assert.equal(new Set(keys).size, keys.length);
		assert.equal(snapshot.release, '2.0.0');
		assert.deepEqual(snapshot.warnings.map((w) => [w.kind, w.fixedIn]), [['chain-drops-live-turn', '2.6.0']]);
	});
});
