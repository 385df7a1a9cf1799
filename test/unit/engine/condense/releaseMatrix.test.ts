/**
 * One session rendered as every pi-condense release that changes what it sends, with the
 * differences between neighbouring releases asserted. The session's entries are written as 2.9.x
 * writes them (occurrence-keyed, a backfilled index entry); older releases read them as they read
 * such entries (§7.2 of the releases spec).
 */
import assert from 'node:assert/strict';
import { resolveConfig } from '../../../../src/engine/config/resolve';
import type { DefectWarning } from '../../../../src/engine/condense/phases/renderReport';
import { renderContextSteps } from '../../../../src/engine/condense/render/renderContext';
import { syntheticBlockId } from '../../../../src/engine/condense/phases/syntheticChain';
import { buildCondenseStateSteps } from '../../../../src/engine/condense/state/buildCondenseState';
import type { ReleaseVersion } from '../../../../src/engine/release/releases';
import type { ContextMessage } from '../../../../src/engine/session/types';

import { assistant, call, chain, record, result, BranchBuilder, text, thinking, user } from './builders';
import { deepFreeze } from './piReference';
import { runSteps } from '../../../../src/engine/steps';
import { releaseRules } from '../../../../src/engine/release/releases';

/**
 * - b1 (user@100 … assistant@150) compressed, its call `bash_0` summarized as t1;
 * - a thinking-only assistant@205, then a live turn (assistant@210) reusing `bash_0`, with a
 *   `context_tree_query` recovery (summarized as t2) in the same turn;
 * - assistant@220 calls `read_0`; another extension's notice lands before its result, which a
 *   2.9.0 deterministic compression backfilled as t3;
 * - the frontier carries 2.4.3's thinking boundary 215; one more user message follows.
 */
function session(): BranchBuilder {
	return new BranchBuilder()
		.messages(user(100, 'first'), assistant(110, thinking('a'), call('bash_0', 'bash')), result('bash_0', 'bash', 111, 'OLD'), assistant(150, thinking('b'), text('done')))
		.summary('old', [['t1', 'bash_0', 111]]).index(record('bash_0', 'bash', 'OLD', { resultTimestamp: 111 }))
		.chain(chain('b1', 100, 150, { droppedToolCallIds: ['bash_0'], droppedOccurrenceKeys: ['bash_0@111'], toolRefs: ['t1'], rangeSummaryText: 'fused' }))
		.messages(user(200, 'second'), assistant(205, thinking('c'), text('let me look')))
		.messages(assistant(210, thinking('d'), call('bash_0', 'bash'), call('ctq_0', 'context_tree_query')), result('bash_0', 'bash', 211, 'LIVE'), result('ctq_0', 'context_tree_query', 212, 'RECOVERED'))
		.summary('live', [['t2', 'ctq_0', 212]]).index(record('ctq_0', 'context_tree_query', 'RECOVERED', { resultTimestamp: 212 }))
		.messages(assistant(220, thinking('e'), call('read_0', 'read')))
		.foreign('other-extension', 'notice')
		.messages(result('read_0', 'read', 222, 'FILE'))
		.backfill([record('read_0', 'read', 'FILE', { turnIndex: -1, timestamp: 222, resultTimestamp: 222 })], [['t3', 'read_0', 222]])
		.messages(assistant(230, thinking('f'), text('answer')))
		.frontier('read_0', { thinkingStripBoundaryTimestamp: 215 })
		.messages(user(300, 'third'));
}

/** A line per message: role, timestamp, thinking kept (`+think`), a result's text or stub ref. */
function lineOf(message: ContextMessage): string {
	switch (message.role) {
		case 'user':
			return syntheticBlockId(message) === undefined ? `user@${message.timestamp}` : `chain ${syntheticBlockId(message) ?? ''}`;
		case 'assistant':
			return `A@${message.timestamp}${message.content.some((b) => b.type === 'thinking') ? '+think' : ''}`;
		case 'toolResult': {
			const first = message.content[0];
			const body = first?.type === 'text' ? first.text : '';
			const ref = /ref `([^`]+)`/.exec(body)?.[1];
			return `R ${message.toolCallId}@${message.timestamp}: ${ref === undefined ? body : `stub ${ref}`}`;
		}
		case 'custom':
			return `custom ${message.customType}`;
		default:
			return message.role;
	}
}

function render(version: ReleaseVersion): { lines: string[]; warnings: DefectWarning[]; diagnostics: string[] } {
	const rules = releaseRules(version);
	const s = session();
	const { config, problems } = resolveConfig({ enabled: true, thinkingStrip: { enabled: true, keepLastTurns: 1 } }, rules);
	assert.deepEqual(problems, []);
	const warnings: DefectWarning[] = [];
	const diagnostics: string[] = [];
	const out = runSteps(renderContextSteps(deepFreeze(s.context), runSteps(buildCondenseStateSteps(deepFreeze(s.branch), rules)), config, rules, {
		warning: (w) => warnings.push(w),
		diagnostic: (d) => diagnostics.push(`${d.kind}: ${d.detail}`),
	}));
	return { lines: out.map(lineOf), warnings, diagnostics };
}

/** Lines present in `b` and not in `a`, and the reverse. */
function diff(a: readonly string[], b: readonly string[]): { added: string[]; removed: string[] } {
	return { added: b.filter((line) => !a.includes(line)), removed: a.filter((line) => !b.includes(line)) };
}

describe('one session as every release renders it', () => {
	const at = Object.fromEntries((['2.0.0', '2.2.1', '2.3.0', '2.4.2', '2.4.3', '2.5.0', '2.6.0', '2.8.0', '2.9.0', '2.9.1'] as const).map((v) => [v, render(v)]));

	it('2.0.0: drops the live turn by id, stubs the recovery, strips thinking but the last, and warns', () => {
		assert.deepEqual(at['2.0.0']?.lines, [
			'user@100', 'chain b1', 'A@150', 'user@200', 'A@205',
			'R ctq_0@212: stub t2', 'custom context-prune-summary', 'A@220', 'custom other-extension', 'R read_0@222: stub read_0', 'A@230+think', 'user@300',
		]);
		// The recovery result lost its call to the drop (2.6.0 fixes that); read_0's result is behind
		// another extension's message, as in Pi's own context (only 2.9.1's barrier sweeps it).
		assert.deepEqual(at['2.0.0']?.warnings.map((w) => [w.kind, w.fixedIn, w.toolCallIds.join()]), [
			['chain-drops-live-turn', '2.6.0', 'bash_0,ctq_0'], ['orphan-tool-result', '2.6.0', 'ctq_0'], ['orphan-tool-result', '2.9.1', 'read_0'],
		]);
		assert.deepEqual(at['2.0.0']?.diagnostics, []);
	});

	it('2.3.0 adds the recovery grace: the recovered output stays verbatim', () => {
		assert.deepEqual(at['2.2.1']?.lines, at['2.0.0']?.lines);
		assert.deepEqual(diff(at['2.2.1']?.lines ?? [], at['2.3.0']?.lines ?? []), { added: ['R ctq_0@212: RECOVERED'], removed: ['R ctq_0@212: stub t2'] });
		assert.deepEqual(at['2.4.2']?.lines, at['2.3.0']?.lines);
	});

	it('2.4.3 strips by the boundary stored at flush: assistant@220 keeps its thinking', () => {
		assert.deepEqual(diff(at['2.4.2']?.lines ?? [], at['2.4.3']?.lines ?? []), { added: ['A@220+think'], removed: ['A@220'] });
	});

	it('2.5.0 strips no thinking at all', () => {
		assert.deepEqual(diff(at['2.4.3']?.lines ?? [], at['2.5.0']?.lines ?? []), { added: ['A@205+think'], removed: ['A@205'] });
	});

	it('2.6.0 keeps the live turn, cuts the chain at its own position, and warns of nothing it keeps', () => {
		assert.deepEqual(at['2.6.0']?.lines, [
			'user@100', 'chain b1', 'A@150', 'user@200', 'A@205+think',
			'A@210+think', 'R bash_0@211: LIVE', 'R ctq_0@212: RECOVERED', 'custom context-prune-summary',
			'A@220+think', 'custom other-extension', 'R read_0@222: stub read_0', 'A@230+think', 'user@300',
		]);
		assert.deepEqual(at['2.6.0']?.warnings.map((w) => [w.kind, w.fixedIn]), [['orphan-tool-result', '2.9.1']]);
		assert.deepEqual(at['2.8.0']?.lines, at['2.6.0']?.lines);
	});

	it('2.9.0 registers the backfilled ref: the backfilled result\'s stub names t3', () => {
		assert.deepEqual(diff(at['2.8.0']?.lines ?? [], at['2.9.0']?.lines ?? []), { added: ['R read_0@222: stub t3'], removed: ['R read_0@222: stub read_0'] });
	});

	it('2.9.1 sweeps the result behind another extension\'s message, and reports the sweep as it does', () => {
		assert.deepEqual(diff(at['2.9.0']?.lines ?? [], at['2.9.1']?.lines ?? []), { added: [], removed: ['R read_0@222: stub t3'] });
		assert.deepEqual(at['2.9.1']?.diagnostics, ['orphan-sweep: swept 1 orphan toolResult(s): read_0']);
		assert.deepEqual(at['2.9.1']?.warnings, []);
	});
});

describe('the id-collision fixture of the 2.6.0 fix (bash_23 reused by a live turn)', () => {
	/** Two closed chains (b5: bash_18, b7: bash_23), then a live turn reusing bash_23 beside gauntlet_setting_24, and its summary. */
	function collision(): BranchBuilder {
		return new BranchBuilder()
			.messages(user(1000, '1'), assistant(1100, call('bash_18', 'bash')), result('bash_18', 'bash', 1150, 'OUT 18'), assistant(1200, text('done 1')))
			.summary('summary of bash_18', [['t1', 'bash_18', 1150]]).index(record('bash_18', 'bash', 'OUT 18', { resultTimestamp: 1150 }))
			.messages(user(2000, '2'), assistant(2100, call('bash_23', 'bash')), result('bash_23', 'bash', 2150, 'OUT 23 first'), assistant(2200, text('done 2')))
			.summary('summary of bash_23', [['t2', 'bash_23', 2150]]).index(record('bash_23', 'bash', 'OUT 23 first', { resultTimestamp: 2150 }))
			.chain(chain('b5', 1000, 1200, { droppedToolCallIds: ['bash_18'], droppedOccurrenceKeys: ['bash_18@1150'], toolRefs: ['t1'] }))
			.chain(chain('b7', 2000, 2200, { droppedToolCallIds: ['bash_23'], droppedOccurrenceKeys: ['bash_23@2150'], toolRefs: ['t2'] }))
			.messages(user(3000, '3'), assistant(3100, call('bash_23', 'bash'), call('gauntlet_setting_24', 'bash')))
			.messages(result('bash_23', 'bash', 3150, 'LIVE 23'), result('gauntlet_setting_24', 'bash', 3160, 'LIVE 24'))
			.summary('live summary', [['t3', 'bash_23', 3150], ['t4', 'gauntlet_setting_24', 3160]]);
	}

	function renderAs(version: ReleaseVersion): { lines: string[]; warnings: DefectWarning[] } {
		const rules = releaseRules(version);
		const s = collision();
		const { config } = resolveConfig({ enabled: true, chainCompression: { stripFinalAssistantThinking: false } }, rules);
		const warnings: DefectWarning[] = [];
		const out = runSteps(renderContextSteps(s.context, runSteps(buildCondenseStateSteps(s.branch, rules)), config, rules, { warning: (w) => warnings.push(w) }));
		return { lines: out.map(lineOf), warnings };
	}

	it('2.5.0 deletes the live assistant, its bash_23 result and its summary, and leaves gauntlet_setting_24 orphaned (and says so)', () => {
		const { lines, warnings } = renderAs('2.5.0');
		assert.deepEqual(lines.slice(-3), ['A@2200', 'user@3000', 'R gauntlet_setting_24@3160: LIVE 24']);
		assert.deepEqual(warnings.map((w) => [w.kind, w.toolCallIds.join()]), [
			['chain-drops-live-turn', 'bash_23,gauntlet_setting_24'], ['orphan-tool-result', 'gauntlet_setting_24'],
		]);
	});

	it('2.9.1 keeps the whole live turn and its live summary, each chain with its own body', () => {
		const { lines, warnings } = renderAs('2.9.1');
		assert.deepEqual(lines, [
			'user@1000', 'chain b5', 'A@1200', 'user@2000', 'chain b7', 'A@2200',
			'user@3000', 'A@3100', 'R bash_23@3150: LIVE 23', 'R gauntlet_setting_24@3160: LIVE 24', 'custom context-prune-summary',
		]);
		assert.deepEqual(warnings, []);
		const s = collision();
		const rules = releaseRules('2.9.1');
		const bodies = runSteps(buildCondenseStateSteps(s.branch, rules)).chains.map((c) => c.bodyText);
		assert.deepEqual(bodies, ['summary of bash_18', 'summary of bash_23']);
	});
});
