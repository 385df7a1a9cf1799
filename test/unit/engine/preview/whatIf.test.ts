import assert from 'node:assert/strict';
import { previewWithRows } from './allRows';
import { join } from 'node:path';
import { protectionCheck } from '../../../../src/engine/condense';
import {
	snapshotBaseSteps, sanitizeOverrides, simulateWindowSteps, whatIfChanges, withWhatIf,
} from '../../../../src/engine/preview';
import { buildCondenseStateSteps, type ProtectionCheck } from '../../../../src/engine/condense';
import { deterministicChainBody } from '../../../../src/engine/chains/deterministicBody';
import { detectChainsSteps } from '../../../../src/engine/chains/detectChains';
import { assistant, BranchBuilder, call, result, text, user } from '../condense/builders';
import { deepFreeze, loadSession, REFERENCE_DIR, referenceConfig } from '../condense/piReference';
import { defaults, LATEST, R200 } from '../../../support/releases';
import { runSteps } from '../../../../src/engine/steps';

const syntheticChain = user(50, '<compressed-chain id="b1" tools="t1">\nbody\n</compressed-chain>');

describe('what-if settings', () => {
	it('maps settings to contextPrune keys and reports only what changed', () => {
		const DEFAULT_CONFIG = { ...defaults(R200), thinkingStrip: { enabled: false, keepLastTurns: 16 } };
		const config = withWhatIf(DEFAULT_CONFIG, { 'chainCompression.rollingWindow': 1, 'thinkingStrip.keepLastTurns': 4, protectedTools: ['todoread'] });
		assert.equal(config.chainCompression.rollingWindow, 1);
		assert.equal(config.chainCompression.fuseRangeSummary, DEFAULT_CONFIG.chainCompression.fuseRangeSummary);
		assert.equal(config.thinkingStrip?.keepLastTurns, 4);
		assert.deepEqual(config.protectedTools, ['todoread']);
		assert.deepEqual(whatIfChanges(DEFAULT_CONFIG, { 'chainCompression.rollingWindow': 1, 'thinkingStrip.keepLastTurns': 16, 'thinkingStrip.enabled': true, 'purgeErrors.cooldownTurns': 5 }), [
			{ key: 'chainCompression.rollingWindow', value: 1 },
			{ key: 'thinkingStrip.enabled', value: true },
			{ key: 'purgeErrors.cooldownTurns', value: 5 },
		]);
		assert.deepEqual(whatIfChanges(DEFAULT_CONFIG, {}), []);
	});

	it('changes no thinking-strip key for a release without the strip (2.5.0+)', () => {
		const latest = defaults(LATEST);
		assert.equal('thinkingStrip' in withWhatIf(latest, { 'thinkingStrip.enabled': true }), false);
		assert.deepEqual(whatIfChanges(latest, { 'thinkingStrip.enabled': true, 'thinkingStrip.keepLastTurns': 2 }), []);
	});

	it('drops values that are out of range or of the wrong type', () => {
		assert.deepEqual(sanitizeOverrides({ 'chainCompression.rollingWindow': -1, 'thinkingStrip.keepLastTurns': 2.5, 'purgeErrors.cooldownTurns': 3, protectedTools: [' a ', 'a', '', 'b'] }), {
			'purgeErrors.cooldownTurns': 3, protectedTools: ['a', 'b'],
		});
		assert.deepEqual(sanitizeOverrides({ 'thinkingStrip.enabled': 'yes' as unknown as boolean }), {});
	});
});

describe('chains for the rolling-window what-if (the flush\'s own detection and planning)', () => {
	const messages = [
		user(1), assistant(2, call('a', 'bash')), result('a', 'bash', 3, 'x'), assistant(4, text('closed')),
		user(5), syntheticChain, assistant(6, call('b', 'read', { path: 'p' })), result('b', 'read', 7, 'y'),
		user(8), assistant(9, call('c', 'bash')),
	];
	const readOfP: ProtectionCheck = (name, args) => name === 'read' && (args as { path?: unknown } | undefined)?.path === 'p';

	it('finds closed, interrupted and open chains; a synthetic chain message starts none', () => {
		const chains = runSteps(detectChainsSteps(messages, readOfP));
		assert.deepEqual(chains.map((c) => [c.startUserTimestamp, c.finalAssistantTimestamp, c.middleToolCallIds]), [
			[1, 4, ['a']],
			[5, null, ['b']],
		]);
		assert.deepEqual(chains[1]?.middleKeys, ['b@7']);
		assert.deepEqual(chains[1]?.protectedToolCallIds, ['b']);
	});

	it('gives a chain no summary covers the deterministic body the flush writes (2.9.0), not a skip', () => {
		const state = runSteps(buildCondenseStateSteps([], LATEST));
		const simulation = runSteps(simulateWindowSteps(state, messages, 0, readOfP, 42, LATEST));
		assert.deepEqual(simulation.simulated, ['b1']);
		assert.equal(simulation.uncovered, 1);
		const chain = simulation.state.chains[0];
		assert.equal(chain?.entry.bodySource, 'deterministic');
		assert.equal(chain?.entry.compressedAt, 42);
		const body = deterministicChainBody([{ toolCallId: 'a', toolName: 'bash', args: {}, resultText: 'x', isError: false, turnIndex: -1, timestamp: 3, resultTimestamp: 3 }], ['t1']);
		assert.equal(chain?.entry.rangeSummaryText, body);
		assert.equal(chain?.bodyText, body);
		assert.equal(state.chains.length, 0, 'the input state is unchanged');
	});
});

describe('rolling-window what-if and the recovery grace (2.3.0+)', () => {
	// Two closed chains; the first holds a recovery (context_tree_query) output two user turns old.
	const session = new BranchBuilder().messages(
		user(1), assistant(2, call('q', 'context_tree_query', { refs: ['t1'] })), result('q', 'context_tree_query', 3, 'raw'), assistant(4, text('one')),
		user(5), assistant(6, call('b', 'bash')), result('b', 'bash', 7, 'y'), assistant(8, text('two')),
		user(9),
	);
	const simulate = (turns: number) => runSteps(simulateWindowSteps(runSteps(buildCondenseStateSteps(session.branch, LATEST)), session.context, 0, () => false, 1, LATEST, { branch: session.branch, turns }));

	it('defers the chain holding an output in its grace window, as the flush does', () => {
		const simulation = simulate(3);
		assert.deepEqual(simulation.state.chains.map((chain) => chain.entry.startUserTimestamp), [5]);
	});

	it('compresses it once the output has aged out of the window', () => {
		assert.deepEqual(simulate(1).state.chains.map((chain) => chain.entry.startUserTimestamp), [1, 5]);
	});
});

describe('rolling-window simulation on a real pi-condense session', () => {
	const loaded = loadSession(join(REFERENCE_DIR, 'basic', 'session.jsonl'));
	const config = referenceConfig('basic', R200);
	const base = runSteps(snapshotBaseSteps({ sessionPath: '', title: '', branch: deepFreeze(loaded.branch), messages: deepFreeze(loaded.messages), config, rules: R200 }));

	it('compresses the newest closed chain too with K=0, with the covering summary as its body', () => {
		const simulation = runSteps(simulateWindowSteps(base.state, loaded.messages, 0, protectionCheck(config), 1234, R200));
		assert.deepEqual(simulation.simulated, ['b3']);
		const chain = simulation.state.chains.find((c) => c.entry.blockId === 'b3');
		// The dedup alias in the middle shows its original's tN, as pi-condense's getShortRefForToolCallId
		// (and our flush) gives it; the preview's own copy of chain planning used to leave it out.
		assert.deepEqual(chain?.entry.toolRefs, ['t4', 't8']);
		assert.deepEqual(chain?.entry.droppedToolCallIds, ['call_p2_t0_0', 'call_p2_t1_0']);
		assert.equal(chain?.entry.compressedAt, 1234);
		assert.match(chain?.bodyText ?? '', /context_tree_query/);
		assert.equal(base.state.chains.length, 2, 'the input state is unchanged');
	});

	it('changes nothing already compressed for a larger K', () => {
		assert.deepEqual(runSteps(simulateWindowSteps(base.state, loaded.messages, 5, protectionCheck(config), 1, R200)).simulated, []);
	});

	it('recomputes rows, reclaim and the list of changes for a what-if, without touching the base', () => {
		const current = previewWithRows(base, { overrides: {}, pricing: undefined, now: 1 }).snapshot;
		const whatIf = previewWithRows(base, { overrides: { 'chainCompression.rollingWindow': 0 }, pricing: undefined, now: 1 }).snapshot;
		assert.deepEqual(whatIf.whatIf.simulatedChains, ['b3']);
		assert.deepEqual(whatIf.whatIf.changes, [{ key: 'chainCompression.rollingWindow', value: 0 }]);
		assert.ok(whatIf.totals.afterTokens < current.totals.afterTokens);
		const simulatedRow = whatIf.after.find((row) => row.key === 'bb3');
		assert.deepEqual(simulatedRow?.badges.map((b) => b.kind), ['chain', 'simulated']);
		assert.ok(whatIf.cache.breakIndex < current.cache.breakIndex, 'compressing an older chain breaks the cache earlier');
	});

	it('restores a protected tool\'s output when the what-if protects it', () => {
		const whatIf = previewWithRows(base, { overrides: { protectedTools: ['context_tree_query'] }, pricing: undefined, now: 1 }).snapshot;
		const row = whatIf.after.find((r) => r.kind === 'toolResult' && r.title === 'context_tree_query');
		assert.deepEqual(row?.badges.map((b) => b.kind), ['protected']);
		assert.equal(row?.stub, undefined);
	});

	it('keeps thinking on more turns when the strip is switched off', () => {
		const stripped = previewWithRows(base, { overrides: {}, pricing: undefined, now: 1 }).snapshot;
		const kept = previewWithRows(base, { overrides: { 'thinkingStrip.enabled': false }, pricing: undefined, now: 1 }).snapshot;
		const count = (rows: typeof kept.after): number => rows.filter((r) => r.badges.some((b) => b.kind === 'thinkingStripped')).length;
		assert.ok(count(kept.after) < count(stripped.after));
		assert.ok(kept.totals.afterTokens > stripped.totals.afterTokens);
	});
});
