import assert from 'node:assert/strict';
import { detectChains, selectChains } from '../../../../src/engine/flush';
import { protectionCheck } from '../../../../src/engine/condense';
import { assistant, call, result, text, user } from '../condense/builders';

const protect = protectionCheck({ protectedTools: ['todoread'], protectedPaths: ['**/skills/**/*.md'] });

describe('chain detection', () => {
	it('finds closed chains with their middle ids, in order, without repeats', () => {
		const chains = detectChains([
			user(1), assistant(2, call('a', 'bash'), call('b', 'read')), result('a', 'bash', 3, 'x'), result('b', 'read', 4, 'y'),
			assistant(5, call('a', 'bash')), result('a', 'bash', 6, 'z'), assistant(7, text('done')),
		], protect);
		assert.equal(chains.length, 1);
		assert.deepEqual({ ...chains[0], middleKeys: undefined }, {
			startUserTimestamp: 1, finalAssistantTimestamp: 7, middleToolCallIds: ['a', 'b'], protectedToolCallIds: [], middleKeys: undefined, startIndex: 0, endIndex: 6,
		});
		assert.deepEqual(chains[0]?.middleKeys, ['a@3', 'b@4', 'a@6']);
	});

	it('reports an interrupted chain with a null final timestamp, and never the open one', () => {
		const chains = detectChains([
			user(1), assistant(2, call('a', 'bash')), result('a', 'bash', 3, 'x'),
			user(4), assistant(5, call('b', 'bash')), result('b', 'bash', 6, 'y'), assistant(7, text('ok')),
			user(8), assistant(9, call('c', 'bash')), result('c', 'bash', 10, 'z'),
		], protect);
		assert.deepEqual(chains.map((c) => [c.startUserTimestamp, c.finalAssistantTimestamp, c.middleToolCallIds]), [[1, null, ['a']], [4, 7, ['b']]]);
	});

	it('lets synthetic chain messages and custom messages pass through', () => {
		const chains = detectChains([
			user(1), assistant(2, call('a', 'bash')), result('a', 'bash', 3, 'x'),
			{ role: 'user', content: [{ type: 'text', text: '<compressed-chain id="b1" tools="">\nold\n</compressed-chain>' }], timestamp: 4 },
			{ role: 'custom', customType: 'context-prune-summary', content: 's', display: false, timestamp: 5 },
			assistant(6, text('done')),
		], protect);
		assert.deepEqual(chains.map((c) => [c.startUserTimestamp, c.finalAssistantTimestamp]), [[1, 6]]);
	});

	it('lists protected calls by tool name and by path glob', () => {
		const [chain] = detectChains([
			user(1), assistant(2, call('t', 'todoread'), call('s', 'read', { path: 'a/skills/x/SKILL.md' }), call('r', 'read', { path: 'src/a.ts' })),
			result('t', 'todoread', 3, 'x'), result('s', 'read', 4, 'y'), result('r', 'read', 5, 'z'), assistant(6, text('done')),
		], protect);
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
