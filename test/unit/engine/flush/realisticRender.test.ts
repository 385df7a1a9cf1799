/**
 * (Issue 3, acceptance 2.) A realistic session built with the engine's own writers on top of a
 * real one: the first two prompts of `real-sessions/large-session.migrated-v3.jsonl`, flushed,
 * then two more prompts (a re-read of two files already read, a 25 kB build log, a failed edit
 * with large arguments, a small listing), flushed again. That gives summaries for most batches,
 * two dedup aliases, a summarized build log (a flush spills nothing: the release spills at
 * `turn_end` only), two compressed chains (both fused) and an errored large
 * edit. The rendered context is checked message by message against expectations worked out by
 * hand from pi-condense's rules (written out below, not captured from a run).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildCondenseStateSteps, contentText, renderContextSteps } from '../../../../src/engine/condense';
import { resolveConfig } from '../../../../src/engine/config/resolve';
import { buildSessionContextSteps, getBranchSteps, parseSessionSteps } from '../../../../src/engine/session';
import type { AgentMessage, AssistantMessage } from '../../../../src/engine/session/types';
import { flushText, memorySpillWriter } from '../../../support/flushHarness';
import { output } from '../../../support/flushFixtures';
import { realSessionsDir } from '../../../support/paths';
import { richReply } from '../../../support/richSession';
import { scriptedSummarizer } from '../../../support/scriptedSummarizer';
import { WRITER_RELEASE } from '../../../support/releases';
import { runSteps } from '../../../../src/engine/steps';

type Json = Record<string, unknown>;

const config = resolveConfig({
	enabled: true, minBatchChars: 200, spillThreshold: 20_000, chainCompression: { rollingWindow: 2 },
}, WRITER_RELEASE).config;

const stub = (ref: string): string => `[Summarized in pruner summary, ref \`${ref}\`. Use context_tree_query to retrieve full output.]`;
const footer = (...refs: string[]): string => `\n\n---\n**Summarized tool refs**: ${refs.map((r) => `\`${r}\``).join(', ')}\nUse \`context_tree_query\` with these refs to retrieve the original full outputs.`;

describe('rendering a realistic session written by our flush', () => {
	it('shows chains, stubs, the spill stub, purged arguments and the live summary exactly', async () => {
		const real = readFileSync(join(realSessionsDir, 'large-session.migrated-v3.jsonl'), 'utf8').split('\n');
		const prefix = `${real.slice(0, 25).join('\n')}\n`;
		const summarizer = scriptedSummarizer(richReply);
		const spill = memorySpillWriter('/blobs');
		const first = await flushText(prefix, config, summarizer, { spill, nowMs: 1_800_000_000_000 });
		// 5 batches of prompts A and B, 12 calls: A's third batch (one 129-char edit) is trivial; the
		// four summaries are 178 + 201 + 132 + 182 chars (bullets `- \`tN\` tool done` plus footers).
		assert.equal(first.result.message, 'pruner: pruned 12 tool calls from 5 batches — summary 693 chars vs 49135 raw chars');

		const themeMd = resultOf(real, 7);
		const themeTs = resultOf(real, 8);
		const buildLog = output('build', 25_000);
		const bigEdit = { path: 'packages/coding-agent/src/tui/tui-renderer.ts', oldText: output('old', 700), newText: 'theme.fg("accent")' };
		const listing = output('themes', 300);
		const appended = appendMessages(first.text, [
			user(2_000, 'Re-read the theme docs and theme.ts, build, and swap the border colour.'),
			assistant(2_001, [call('c1', 'read', { path: 'packages/coding-agent/docs/theme.md' }), call('c2', 'read', { path: 'packages/coding-agent/src/theme/theme.ts' })]),
			result(2_002, 'c1', 'read', themeMd),
			result(2_003, 'c2', 'read', themeTs),
			assistant(2_004, [call('c3', 'bash', { command: 'npm run build' })]),
			result(2_005, 'c3', 'bash', buildLog),
			assistant(2_006, [call('c4', 'edit', bigEdit)]),
			result(2_007, 'c4', 'edit', 'Could not find the exact text in tui-renderer.ts.', true),
			assistant(2_008, [{ type: 'text', text: 'The build passes; the border edit did not apply.' }]),
			user(2_009, 'List the themes folder.'),
			assistant(2_010, [call('d1', 'bash', { command: 'ls themes' })]),
			result(2_011, 'd1', 'bash', listing),
			assistant(2_012, [{ type: 'text', text: 'Two themes: dark and light.' }]),
		]);
		const second = await flushText(appended, config, summarizer, { spill, nowMs: 1_800_000_100_000 });
		// Turns count every assistant message on the branch: C's re-reads are turn 8, its edit turn 10.
		assert.deepEqual([...second.result.notices], [
			'pruner: compressed 2 chains (b1, b2)',
			`pruner: deduplicated 2 tool calls (turn 8, ${themeMd.length + themeTs.length} raw chars) against earlier prunes; no LLM call made; frontier advanced past this range`,
			'pruner: skipped pruning turn 10 (1 tool call) — only 49 raw chars (< minBatchChars=200); no LLM call made; frontier advanced past this range',
			`pruner: pruned 5 tool calls from 4 batches — summary 268 chars vs ${themeMd.length + themeTs.length + buildLog.length + 49 + listing.length} raw chars`,
		]);

		const model = runSteps(parseSessionSteps(second.text));
		const pi = runSteps(buildSessionContextSteps(model)).messages;
		const rendered = runSteps(renderContextSteps(pi, runSteps(buildCondenseStateSteps(runSteps(getBranchSteps(model)), WRITER_RELEASE)), config, WRITER_RELEASE));
		const same = (i: number) => ({ same: pi[i] as AgentMessage });
		const expected: Expectation[] = [
			same(0), // "/mode"
			same(1), // the aborted reply (no tool calls: it closes an empty chain)
			same(2), // prompt A
			{ text: '<compressed-chain id="b1" tools="t1,t2,t3,t4,t5,t6,t7">\nFused: 2 steps.\n</compressed-chain>', timestamp: 1_800_000_100_000 },
			same(14), // A's final reply; its middle (3 batches, the trivial edit included) is gone
			same(15), // prompt B
			{ text: '<compressed-chain id="b2" tools="t8,t9,t10,t11">\nFused: 2 steps.\n</compressed-chain>', timestamp: 1_800_000_100_000 },
			same(22), // B's final reply; the four summaries of flush 1 are hidden (they cover dropped calls)
			same(27), // prompt C
			same(28), // the re-reads
			{ stub: 'c1', text: stub('t1') }, // alias of theme.md's record
			{ stub: 'c2', text: stub('t2') }, // alias of theme.ts's record
			same(31), // the build
			// A flush never spills a result itself (the release does it at turn_end only): the build log is summarized.
			{ stub: 'c3', text: stub('t12') },
			{ purged: 'c4', size: JSON.stringify(bigEdit).length }, // errored, 3 turns old, 700+ chars of arguments
			same(34), // its error stays (a trivial batch: never summarized)
			same(35), // C's final reply
			same(36), // prompt D
			same(37),
			{ stub: 'd1', text: stub('t13') },
			same(39), // D's final reply
			{ summary: `- \`t12\` bash done${footer('t12')}` }, // flush 2's live summaries (one per turn), after the reply
			{ summary: `- \`t13\` bash done${footer('t13')}` },
		];
		assert.equal(pi.length, 42, 'Pi\'s own context: 36 messages and 6 summaries');
		assert.equal(rendered.length, expected.length);
		expected.forEach((want, i) => check(rendered[i] as AgentMessage, want, i));
	});
	it('aliases the duplicate in a batch and summarizes the rest of it (partial dedup)', async () => {
		const partialConfig = { ...config, chainCompression: { ...config.chainCompression, enabled: false } };
		const log = output('app', 1500);
		const prefix = appendMessages(readFileSync(join(realSessionsDir, 'large-session.migrated-v3.jsonl'), 'utf8').split('\n')[0] + '\n', [
			user(3_000, 'Read the log.'),
			assistant(3_001, [call('a1', 'read', { path: 'app.log' })]),
			result(3_002, 'a1', 'read', log),
			assistant(3_003, [{ type: 'text', text: 'Read.' }]),
		]);
		const summarizer = scriptedSummarizer(richReply);
		const first = await flushText(prefix, partialConfig, summarizer);
		const again = appendMessages(first.text, [
			user(3_004, 'Read it again, and the config.'),
			assistant(3_005, [call('a2', 'read', { path: 'app.log' }), call('c1', 'read', { path: 'app.json' })]),
			result(3_006, 'a2', 'read', log),
			result(3_007, 'c1', 'read', output('config', 1500)),
			assistant(3_008, [{ type: 'text', text: 'Both read.' }]),
		]);
		const second = await flushText(again, partialConfig, summarizer);
		const written = second.text.slice(again.length).trimEnd().split('\n').map((line) => JSON.parse(line) as { customType: string; data?: { toolCalls?: { toolCallId: string }[] } });
		assert.deepEqual(written.map((e) => e.customType), ['context-prune-dedup-alias', 'context-prune-summary', 'context-prune-index', 'context-prune-frontier', 'context-prune-stats']);
		assert.deepEqual(written[2]?.data?.toolCalls?.map((r) => r.toolCallId), ['c1'], 'only the new call is summarized');
		assert.deepEqual([...second.result.notices].slice(-2, -1), ['pruner: deduplicated 1 tool call against earlier prunes (no LLM call for those); remaining tool calls were summarized normally.']);
	});
});

type Expectation =
	| { readonly same: AgentMessage }
	| { readonly text: string; readonly timestamp: number }
	| { readonly stub: string; readonly text: string }
	| { readonly purged: string; readonly size: number }
	| { readonly summary: string };

function check(message: AgentMessage, want: Expectation, i: number): void {
	const where = `message ${i}`;
	if ('same' in want) {
		assert.equal(message, want.same, `${where} is Pi's own, untouched`);
	} else if ('timestamp' in want) {
		assert.deepEqual(message, { role: 'user', content: [{ type: 'text', text: want.text }], timestamp: want.timestamp }, where);
	} else if ('stub' in want) {
		assert.equal(message.role, 'toolResult', where);
		assert.equal(message.role === 'toolResult' && message.toolCallId, want.stub, where);
		assert.equal(message.role === 'toolResult' && message.isError, false, where);
		assert.equal(message.role === 'toolResult' ? contentText(message.content) : '', want.text, where);
	} else if ('purged' in want) {
		const calls = (message as AssistantMessage).content.filter((b) => b.type === 'toolCall');
		assert.deepEqual(calls.map((c) => [c.id, c.arguments]), [[want.purged, { _purged: `<purged-errored-args size="${want.size}"/>` }]], where);
	} else {
		assert.equal(message.role, 'custom', where);
		assert.equal(message.role === 'custom' ? message.content : '', want.summary, where);
	}
}


function resultOf(lines: readonly string[], lineNumber: number): string {
	const entry = JSON.parse(lines[lineNumber - 1] as string) as { message: { content: { text: string }[] } };
	return entry.message.content.map((part) => part.text).join('\n');
}

function appendMessages(text: string, messages: readonly Json[]): string {
	let leaf = runSteps(parseSessionSteps(text)).leafId;
	let out = text;
	messages.forEach((message, i) => {
		const id = `f${String(i).padStart(7, '0')}`;
		out += `${JSON.stringify({ type: 'message', id, parentId: leaf, timestamp: new Date(1_796_000_000_000 + Number(message['timestamp'])).toISOString(), message })}\n`;
		leaf = id;
	});
	return out;
}

const USAGE = { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
const user = (timestamp: number, text: string): Json => ({ role: 'user', content: [{ type: 'text', text }], timestamp });
const assistant = (timestamp: number, content: Json[]): Json => ({
	role: 'assistant', content, api: 'anthropic-messages', provider: 'anthropic', model: 'claude-sonnet-4-5', usage: USAGE,
	stopReason: content.some((b) => b['type'] === 'toolCall') ? 'toolUse' : 'stop', timestamp,
});
const call = (id: string, name: string, args: Json): Json => ({ type: 'toolCall', id, name, arguments: args });
const result = (timestamp: number, toolCallId: string, toolName: string, text: string, isError = false): Json => ({
	role: 'toolResult', toolCallId, toolName, content: [{ type: 'text', text }], isError, timestamp,
});
