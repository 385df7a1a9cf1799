/**
 * What the session writer's tests share: the drafts they write, the writer's options with no Pi
 * running and no wait, a small idle session, and assertions on a write's result.
 */
import assert from 'node:assert/strict';
import type { EntryDraft } from '../../src/engine/write';
import type { WriteEntriesOptions, WriteEntriesResult } from '../../src/node/write';
import { SessionBuilder, text, toolCall } from './sessionBuilder';
import { noPiRunning } from './tempSession';


export const drafts: EntryDraft[] = [
	{ type: 'custom', customType: 'context-prune-index', data: { toolCalls: [] } },
	{ type: 'custom_message', customType: 'context-prune-summary', content: 'summary of t1', display: false, details: { toolNames: ['bash'] } },
];

export const options: WriteEntriesOptions = { checkPiHolders: noPiRunning, maxWaitMs: 0 };

export function idleSession(build?: (b: SessionBuilder) => void, header?: Record<string, unknown>): SessionBuilder {
	const builder = new SessionBuilder(header);
	builder.user('list files');
	builder.assistant([toolCall('c1', 'bash', { command: 'ls' })]);
	builder.toolResult('c1', 'bash', 'a\nb\n');
	builder.assistant([text('Two files.')]);
	build?.(builder);
	return builder;
}

export function expectRefused(result: WriteEntriesResult, code: string): asserts result is Extract<WriteEntriesResult, { kind: 'refused' }> {
	assert.equal(result.kind, 'refused', JSON.stringify(result.kind === 'refused' ? result.refusal : result.kind));
	assert.equal(result.refusal.code, code, result.refusal.message);
	assert.ok(result.refusal.message.length > 0 && result.refusal.advice.length > 0);
}

export function expectWritten(result: WriteEntriesResult): asserts result is Extract<WriteEntriesResult, { kind: 'written' }> {
	assert.equal(result.kind, 'written', result.kind === 'refused' ? result.refusal.message : result.kind === 'disturbed' ? result.message : '');
}

