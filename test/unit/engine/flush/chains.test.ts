import assert from 'node:assert/strict';
import { join } from 'node:path';
import { detectChainsSteps, selectChains } from '../../../../src/engine/chains';
import { runSteps } from '../../../../src/engine/steps';
import { loadSession, REFERENCE_DIR } from '../condense/piReference';
import { planChainJobsSteps } from '../../../../src/engine/chains/planChains';
import { buildCondenseStateSteps, protectionCheck } from '../../../../src/engine/condense';
import { LATEST, R200 } from '../../../support/releases';
import { assistant, BranchBuilder, call, record, result, text, user } from '../condense/builders';

const protect = protectionCheck({ protectedTools: ['todoread'], protectedPaths: ['**/skills/**/*.md'] });

describe('chain detection', () => {
	it('finds closed chains with their middle ids, in order, without repeats', () => {
		const chains = runSteps(detectChainsSteps([
			user(1), assistant(2, call('a', 'bash'), call('b', 'read')), result('a', 'bash', 3, 'x'), result('b', 'read', 4, 'y'),
			assistant(5, call('a', 'bash')), result('a', 'bash', 6, 'z'), assistant(7, text('done')),
		], protect));
		assert.equal(chains.length, 1);
		assert.deepEqual({ ...chains[0], middleKeys: undefined }, {
			startUserTimestamp: 1, finalAssistantTimestamp: 7, middleToolCallIds: ['a', 'b'], protectedToolCallIds: [], middleKeys: undefined, startIndex: 0, endIndex: 6,
		});
		assert.deepEqual(chains[0]?.middleKeys, ['a@3', 'b@4', 'a@6']);
	});

	it('reports an interrupted chain with a null final timestamp, and never the open one', () => {
		const chains = runSteps(detectChainsSteps([
			user(1), assistant(2, call('a', 'bash')), result('a', 'bash', 3, 'x'),
			user(4), assistant(5, call('b', 'bash')), result('b', 'bash', 6, 'y'), assistant(7, text('ok')),
			user(8), assistant(9, call('c', 'bash')), result('c', 'bash', 10, 'z'),
		], protect));
		assert.deepEqual(chains.map((c) => [c.startUserTimestamp, c.finalAssistantTimestamp, c.middleToolCallIds]), [[1, null, ['a']], [4, 7, ['b']]]);
	});

	it('lets synthetic chain messages and custom messages pass through', () => {
		const chains = runSteps(detectChainsSteps([
			user(1), assistant(2, call('a', 'bash')), result('a', 'bash', 3, 'x'),
			{ role: 'user', content: [{ type: 'text', text: '<compressed-chain id="b1" tools="">\nold\n</compressed-chain>' }], timestamp: 4 },
			{ role: 'custom', customType: 'context-prune-summary', content: 's', display: false, timestamp: 5 },
			assistant(6, text('done')),
		], protect));
		assert.deepEqual(chains.map((c) => [c.startUserTimestamp, c.finalAssistantTimestamp]), [[1, 6]]);
	});

	it('lists protected calls by tool name and by path glob', () => {
		const [chain] = runSteps(detectChainsSteps([
			user(1), assistant(2, call('t', 'todoread'), call('s', 'read', { path: 'a/skills/x/SKILL.md' }), call('r', 'read', { path: 'src/a.ts' })),
			result('t', 'todoread', 3, 'x'), result('s', 'read', 4, 'y'), result('r', 'read', 5, 'z'), assistant(6, text('done')),
		], protect));
		assert.deepEqual(chain?.protectedToolCallIds, ['t', 's']);
	});
});

describe('chain selection (rolling window)', () => {
	const closed = (start: number, ids = ['x']) => ({ startUserTimestamp: start, finalAssistantTimestamp: start + 1, middleToolCallIds: ids, protectedToolCallIds: [], middleKeys: [], startIndex: 0, endIndex: 1 });
	const chains = [closed(1), closed(2), { ...closed(3), finalAssistantTimestamp: null }, closed(4, []), closed(5), closed(6)];

	it('keeps the newest K candidates raw; open, empty and compressed chains are no candidates', () => {
		assert.deepEqual(selectChains(chains, 3, new Set()).map((c) => c.startUserTimestamp), [1]);
		assert.deepEqual(selectChains(chains, 2, new Set()).map((c) => c.startUserTimestamp), [1, 2]);
		assert.deepEqual(selectChains(chains, 2, new Set([1])).map((c) => c.startUserTimestamp), [2]);
		assert.deepEqual(selectChains(chains, 0, new Set()).map((c) => c.startUserTimestamp), [1, 2, 5, 6]);
		assert.deepEqual(selectChains(chains, 4, new Set()), []);
		assert.deepEqual(selectChains(chains, 5, new Set()), []);
	});
});

describe('chain planning of a chain whose range does not resolve', () => {
	// Two user messages share timestamp 1: neither chain starting there resolves to one range.
	const branch = new BranchBuilder()
		.messages(user(1), assistant(2, call('a', 'bash')), result('a', 'bash', 3, 'x'), assistant(4, text('one')))
		.messages(user(1, 'again'), assistant(5, call('b', 'bash')), result('b', 'bash', 6, 'y'), assistant(7, text('two')));

	it('plans a covered chain all the same, as every release compresses without checking (render then leaves it raw)', () => {
		for (const rules of [R200, LATEST]) {
			const covered = new BranchBuilder().messages(...branch.context).summary('S', rules.occurrenceKeys ? [['t1', 'a', 3]] : [['t1', 'a']]);
			const messages = covered.context;
			const [first] = runSteps(detectChainsSteps(messages, protect));
			assert.ok(first);
			const plan = runSteps(planChainJobsSteps([first], messages, runSteps(buildCondenseStateSteps(covered.branch, rules)), rules));
			assert.deepEqual(plan.skipped, [], rules.version);
			assert.deepEqual(plan.jobs.map((job) => job.summaries), [['S']], rules.version);
		}
	});

	it('2.9.x: backfills nothing from an unresolved span; compresses from indexed records only, else reports backfill-empty', () => {
		const messages = branch.context;
		const [first] = runSteps(detectChainsSteps(messages, protect));
		assert.ok(first);
		const bare = runSteps(planChainJobsSteps([first], messages, runSteps(buildCondenseStateSteps(branch.branch, LATEST)), LATEST));
		assert.deepEqual(bare.skipped.map((skip) => skip.reason), ['backfill-empty'], 'the span does not resolve: no fresh records');
		const indexed = new BranchBuilder().messages(...messages).index(record('a', 'bash', 'x', { resultTimestamp: 3, timestamp: 3 }));
		const plan = runSteps(planChainJobsSteps([first], indexed.context, runSteps(buildCondenseStateSteps(indexed.branch, LATEST)), LATEST));
		assert.equal(plan.jobs.length, 1);
		assert.deepEqual(plan.jobs[0]?.fresh, []);
		assert.deepEqual(plan.jobs[0]?.indexed.map((r) => r.toolCallId), ['a']);
	});

	it('selects the same chains when the compressed ones are skipped at detection, on real pruned sessions', () => {
		for (const folder of ['large-bulk', 'large-bulk-2.9.1', 'recovery-2.9.1']) {
			const loaded = loadSession(join(REFERENCE_DIR, folder, 'session.jsonl'));
			const state = runSteps(buildCondenseStateSteps(loaded.branch, LATEST));
			const compressed = new Set(state.chains.map((chain) => chain.entry.startUserTimestamp));
			const all = runSteps(detectChainsSteps(loaded.messages, protect));
			const skipping = runSteps(detectChainsSteps(loaded.messages, protect, compressed));
			assert.ok(compressed.size > 0 || folder === 'recovery-2.9.1', `${folder}: ${compressed.size} compressed chains`);
			assert.ok(skipping.length < all.length || compressed.size === 0, folder);
			assert.ok(skipping.every((chain) => !compressed.has(chain.startUserTimestamp)), folder);
			for (const keepRaw of [0, 1, 3, 1000]) {
				assert.deepEqual(selectChains(skipping, keepRaw, compressed), selectChains(all, keepRaw, compressed), `${folder}, window ${keepRaw}`);
			}
		}
	});
});

