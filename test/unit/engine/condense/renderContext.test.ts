import assert from 'node:assert/strict';
import type { ContextPruneConfig } from '../../../../src/engine/config/types';
import { renderContextSteps } from '../../../../src/engine/condense/render/renderContext';
import { previewContextSteps, renderBranchSteps } from '../../../../src/engine/condense/renderBranch';
import { buildCondenseStateSteps } from '../../../../src/engine/condense/state/buildCondenseState';
import type { AssistantMessage, ToolResultMessage } from '../../../../src/engine/session/types';
import { assistant, call, chain, record, result, BranchBuilder, text, thinking, user } from './builders';
import { deepFreeze } from './piReference';
import { defaults, LATEST, R200 } from '../../../support/releases';
import { runSteps } from '../../../../src/engine/steps';

const DEFAULTS = defaults(R200);
const enabled: ContextPruneConfig = { ...DEFAULTS, enabled: true, thinkingStrip: { enabled: true, keepLastTurns: 1 } };

/** Two user turns: the first compressed into b1, the second with a summarized read and a failed write. */
function session(): BranchBuilder {
	return new BranchBuilder()
		.messages(user(100), assistant(110, thinking('p'), call('c1', 'bash')), result('c1', 'bash', 111, 'x'.repeat(300)))
		.summary('one', [['t1', 'c1']]).index(record('c1', 'bash', 'x'.repeat(300)))
		.messages(assistant(150, thinking('q'), text('first done')))
		.chain(chain('b1', 100, 150, { droppedToolCallIds: ['c1'], toolRefs: ['t1'], rangeSummaryText: 'fused', compressedAt: 160 }))
		.messages(user(200), assistant(210, thinking('r'), call('c2', 'read', { path: 'a.ts' })), result('c2', 'read', 211, 'y'.repeat(300)))
		.summary('two', [['t2', 'c2']]).index(record('c2', 'read', 'y'.repeat(300), { args: { path: 'a.ts' } }))
		.messages(assistant(220, thinking('s'), call('w', 'write', { content: 'z'.repeat(600) })), result('w', 'write', 221, 'denied', true))
		.messages(assistant(230, text('a')), assistant(240, thinking('last'), text('b')));
}

describe('renderContext (the four phases composed; 2.0.0 entries rendered by 2.0.0)', () => {
	it('returns Pi\'s context untouched when pruning is disabled (the default)', () => {
		const s = session();
		const messages = deepFreeze(s.context);
		assert.equal(runSteps(renderContextSteps(messages, runSteps(buildCondenseStateSteps(s.branch, R200)), DEFAULTS, R200)), messages);
		assert.equal(runSteps(renderBranchSteps(s.branch, messages, DEFAULTS, R200)), messages);
		const preview = runSteps(previewContextSteps(s.branch, messages, DEFAULTS, R200));
		assert.equal(preview.after, messages);
		assert.equal(preview.reclaim, undefined);
		assert.equal(preview.statusText, 'prune: OFF');
	});

	it('applies stub, purge, chain and strip in order without touching its input', () => {
		const s = session();
		const messages = deepFreeze(s.context);
		const snapshot = JSON.stringify(messages);
		const out = runSteps(renderContextSteps(messages, runSteps(buildCondenseStateSteps(s.branch, R200)), enabled, R200));
		assert.equal(JSON.stringify(messages), snapshot);
		assert.deepEqual(out.map((m) => m.role), ['user', 'user', 'assistant', 'user', 'assistant', 'toolResult', 'custom', 'assistant', 'toolResult', 'assistant', 'assistant']);
		assert.match(((out[5] as ToolResultMessage).content[0] as { text: string }).text, /ref `t2`/);
		assert.deepEqual((out[7] as AssistantMessage).content.map((b) => (b.type === 'toolCall' ? b.arguments : b.type)), [{ _purged: '<purged-errored-args size="614"/>' }]);
		const thinkingLeft = out.filter((m): m is AssistantMessage => m.role === 'assistant').map((m) => m.content.some((b) => b.type === 'thinking'));
		assert.deepEqual(thinkingLeft, [false, false, false, false, true]);
	});

	it('is idempotent: rendering the rendered context changes nothing more', () => {
		const s = session();
		const state = runSteps(buildCondenseStateSteps(s.branch, R200));
		const once = runSteps(renderContextSteps(deepFreeze(s.context), state, enabled, R200));
		assert.deepEqual(runSteps(renderContextSteps(deepFreeze(once.slice()), state, enabled, R200)), once);
	});

	it('respects each phase switch', () => {
		const s = session();
		const state = runSteps(buildCondenseStateSteps(s.branch, R200));
		const noChain = runSteps(renderContextSteps(s.context, state, { ...enabled, chainCompression: { ...enabled.chainCompression, enabled: false } }, R200));
		assert.equal(noChain.filter((m) => m.role === 'user').length, 2);
		const noPurge = runSteps(renderContextSteps(s.context, state, { ...enabled, purgeErrors: { ...enabled.purgeErrors, enabled: false } }, R200));
		assert.ok(JSON.stringify(noPurge).includes('z'.repeat(600)));
	});

	it('renders a session whose provider reused tool-call ids across turns', () => {
		const s = new BranchBuilder()
			.messages(user(100), assistant(110, call('bash_23', 'bash')), result('bash_23', 'bash', 111, 'OLD'), assistant(150, text('done')))
			.summary('old', [['t1', 'bash_23']]).index(record('bash_23', 'bash', 'OLD'))
			.chain(chain('b1', 100, 150, { droppedToolCallIds: ['bash_23'], toolRefs: ['t1'], rangeSummaryText: 'r' }))
			.messages(user(200), assistant(210, call('bash_23', 'bash')), result('bash_23', 'bash', 211, 'NEW'));
		// 2.0.0 drops the live turn (its ids are a compressed chain's)…
		const v200 = runSteps(renderContextSteps(deepFreeze(s.context), runSteps(buildCondenseStateSteps(s.branch, R200)), enabled, R200));
		assert.deepEqual(v200.map((m) => m.role), ['user', 'user', 'assistant', 'user']);
		// …2.9.1 keeps it, and stubs it with the legacy record's ref while that record is legacy-only.
		const v291 = runSteps(renderContextSteps(deepFreeze(s.context), runSteps(buildCondenseStateSteps(s.branch, LATEST)), { ...enabled, thinkingStrip: undefined }, LATEST));
		assert.deepEqual(v291.map((m) => m.role), ['user', 'user', 'assistant', 'user', 'assistant', 'toolResult']);
		assert.match(((v291[5] as ToolResultMessage).content[0] as { text: string }).text, /ref `t1`/);
	});

	it('previews the reclaim and status text of a changed render', () => {
		const s = session();
		const preview = runSteps(previewContextSteps(s.branch, s.context, enabled, R200));
		assert.ok(preview.reclaim && preview.reclaim.afterChars < preview.reclaim.beforeChars);
		assert.equal(preview.reclaim.beforeChars, JSON.stringify(s.context).length);
		assert.match(preview.statusText, /^prune: ON · \d+(\.\d)?k?->\d+(\.\d)?k? \(-\d+%\)$/);
	});
});
