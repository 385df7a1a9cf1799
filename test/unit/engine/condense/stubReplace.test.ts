import assert from 'node:assert/strict';
import { stubReplaceSteps } from '../../../../src/engine/condense/phases/stubReplace';
import { protectionCheck } from '../../../../src/engine/condense/protection/protectionRules';
import { buildCondenseStateSteps } from '../../../../src/engine/condense/state/buildCondenseState';
import type { ToolResultMessage } from '../../../../src/engine/session/types';
import { assistant, call, record, result, BranchBuilder, user } from './builders';
import { deepFreeze } from './piReference';
import { R200 } from '../../../support/releases';
import { runSteps } from '../../../../src/engine/steps';

const NO_GRACE: ReadonlySet<string> = new Set();

const noProtection = protectionCheck({ protectedTools: [], protectedPaths: [] });

function summarizedSession(): BranchBuilder {
	return new BranchBuilder()
		.messages(user(100), assistant(110, call('r1', 'read', { path: 'src/a.ts' })), result('r1', 'read', 120, 'A'.repeat(50)))
		.summary('read a', [['t1', 'r1']]).index(record('r1', 'read', 'A'.repeat(50), { args: { path: 'src/a.ts' } }));
}

function textOf(message: unknown): string {
	const m = message as ToolResultMessage;
	const first = m.content[0];
	return first?.type === 'text' ? first.text : '';
}

describe('stubReplace (phase 1, entries written by 2.0.0, read by 2.0.0)', () => {
	it('returns the same array when nothing is summarized', () => {
		const s = new BranchBuilder().messages(user(1), assistant(2, call('x', 'bash')), result('x', 'bash', 3, 'o'));
		const messages = deepFreeze(s.context);
		assert.equal(runSteps(stubReplaceSteps(messages, runSteps(buildCondenseStateSteps(s.branch, R200)), noProtection, NO_GRACE)), messages);
	});

	it('replaces a summarized result with the byte-exact stub, keeping its identity fields', () => {
		const s = summarizedSession();
		const messages = deepFreeze(s.context);
		const before = JSON.stringify(messages);
		const out = runSteps(stubReplaceSteps(messages, runSteps(buildCondenseStateSteps(s.branch, R200)), noProtection, NO_GRACE));
		assert.notEqual(out, messages);
		assert.equal(JSON.stringify(messages), before, 'input unchanged');
		assert.deepEqual(out[2], {
			role: 'toolResult', toolCallId: 'r1', toolName: 'read',
			content: [{ type: 'text', text: '[Summarized in pruner summary, ref `t1`. Use context_tree_query to retrieve full output.]' }],
			isError: false, timestamp: 120,
		});
		assert.equal(out[0], messages[0]);
	});

	it('stubs an errored result as isError: false', () => {
		const s = new BranchBuilder().messages(user(1), assistant(2, call('x', 'edit')), result('x', 'edit', 3, 'failed', true))
			.summary('s', [['t1', 'x']]).index(record('x', 'edit', 'failed', { isError: true }));
		const out = runSteps(stubReplaceSteps(s.context, runSteps(buildCondenseStateSteps(s.branch, R200)), noProtection, NO_GRACE));
		assert.equal((out[2] as ToolResultMessage).isError, false);
	});

	it('stubs a dedup alias with its original\'s ref', () => {
		const s = summarizedSession().messages(assistant(130, call('r2', 'read', { path: 'src/a.ts' })), result('r2', 'read', 140, 'A'.repeat(50)))
			.alias('r2', 'r1');
		const out = runSteps(stubReplaceSteps(s.context, runSteps(buildCondenseStateSteps(s.branch, R200)), noProtection, NO_GRACE));
		assert.match(textOf(out[out.length - 1]), /ref `t1`/);
	});

	it('leaves a result raw when its record is protected now (render-time repair), by path or by name', () => {
		const s = summarizedSession();
		const messages = s.context;
		const state = runSteps(buildCondenseStateSteps(s.branch, R200));
		assert.equal(runSteps(stubReplaceSteps(messages, state, protectionCheck({ protectedTools: [], protectedPaths: ['src/*.ts'] }), NO_GRACE)), messages);
		assert.equal(runSteps(stubReplaceSteps(messages, state, protectionCheck({ protectedTools: ['read'], protectedPaths: [] }), NO_GRACE)), messages);
	});

	it('leaves an alias raw when its original is protected, but stubs it when only the alias\'s own path is', () => {
		const s = summarizedSession().messages(assistant(130, call('r2', 'read', { path: 'skills/x.md' })), result('r2', 'read', 140, 'A'.repeat(50)))
			.alias('r2', 'r1');
		const state = runSteps(buildCondenseStateSteps(s.branch, R200));
		const byOriginal = runSteps(stubReplaceSteps(s.context, state, protectionCheck({ protectedTools: [], protectedPaths: ['src/**'] }), NO_GRACE));
		assert.equal(textOf(byOriginal[byOriginal.length - 1]), 'A'.repeat(50));
		const byOwnPath = runSteps(stubReplaceSteps(s.context, state, protectionCheck({ protectedTools: [], protectedPaths: ['skills/**'] }), NO_GRACE));
		assert.match(textOf(byOwnPath[byOwnPath.length - 1]), /ref `t1`/);
	});

	it('writes the multi-line spill stub with the stored spillPath and the call\'s own id', () => {
		const spilled = record('big', 'bash', '', { spillPath: '/elsewhere/s-blobs/big.txt', spillBytes: 5276, resultPreview: 'line1\nline2', timestamp: 3 });
		const s = new BranchBuilder().messages(user(1), assistant(2, call('big', 'bash')), result('big', 'bash', 3, 'x'.repeat(9000))).index(spilled);
		const out = runSteps(stubReplaceSteps(s.context, runSteps(buildCondenseStateSteps(s.branch, R200)), noProtection, NO_GRACE));
		assert.equal(textOf(out[2]), [
			'[Oversized output spilled to file — 5276 bytes.]',
			'Tool: bash',
			'Preview (head):',
			'line1\nline2',
			'Full output — read this file (offset/limit supported): /elsewhere/s-blobs/big.txt',
			'Or use context_tree_query with ref `big`.',
		].join('\n'));
	});

	it('uses ? for unknown spill bytes and the alias\'s own id for an alias of a spilled record', () => {
		const spilled = record('big', 'bash', '', { spillPath: '/b/big.txt', timestamp: 3 });
		const s = new BranchBuilder().messages(user(1), assistant(2, call('big', 'bash')), result('big', 'bash', 3, 'x')).index(spilled)
			.messages(assistant(4, call('again', 'bash')), result('again', 'bash', 5, 'x')).alias('again', 'big');
		const out = runSteps(stubReplaceSteps(s.context, runSteps(buildCondenseStateSteps(s.branch, R200)), noProtection, NO_GRACE));
		assert.match(textOf(out[2]), /^\[Oversized output spilled to file — \? bytes\.\]\n/);
		assert.match(textOf(out[2]), /\nPreview \(head\):\n\nFull output/);
		assert.match(textOf(out[4]), /ref `again`\.$/);
	});
});
