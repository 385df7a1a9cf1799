/**
 * A session that exercises every path of a flush: several prompts (closed chains), batches with
 * large results, a result above the spill threshold, a trivial batch, a batch whose scripted
 * summary is oversized, an errored edit with large arguments, a duplicate of an earlier output
 * and a protected tool. Plus the scripted summaries for it.
 */
import type { SummarizeRequest } from '../../src/engine/ports';
import { output } from './flushFixtures';
import { SessionBuilder, text, toolCall } from './sessionBuilder';

export const SPILL_THRESHOLD = 20_000;
export const OVERSIZED_MARKER = 'cat notes.txt';

/** Prompts 1–3; `second` adds prompts 4–5 (a re-read of an earlier file, and more work). */
export function richSession(second = false): SessionBuilder {
	const b = new SessionBuilder();
	b.user('Explore the project.');
	b.assistant([toolCall('r1', 'read', { path: 'src/app.ts' }), toolCall('r2', 'read', { path: 'src/util.ts' })]);
	b.toolResult('r1', 'read', output('app', 2500));
	b.toolResult('r2', 'read', output('util', 1800));
	b.assistant([toolCall('b1', 'bash', { command: 'ls' })]);
	b.toolResult('b1', 'bash', 'app.ts\nutil.ts\n');
	b.assistant([text('The project has two sources.')]);

	b.user('Fix the greeting and run the build.');
	b.assistant([toolCall('e1', 'edit', { path: 'src/app.ts', edits: [{ oldText: output('old', 900), newText: 'x' }] })]);
	b.toolResult('e1', 'edit', 'Could not find the exact text in src/app.ts.', true);
	b.assistant([toolCall('e2', 'edit', { path: 'src/app.ts', edits: [{ oldText: 'a', newText: 'b' }] }), toolCall('n1', 'bash', { command: OVERSIZED_MARKER })]);
	b.toolResult('e2', 'edit', 'Successfully replaced 1 block(s) in src/app.ts.');
	b.toolResult('n1', 'bash', output('notes', 1100));
	b.assistant([toolCall('big', 'bash', { command: 'npm run build' })]);
	b.toolResult('big', 'bash', output('build', SPILL_THRESHOLD + 5000));
	b.assistant([toolCall('todo', 'todoread', {})]);
	b.toolResult('todo', 'todoread', output('todo', 1500));
	b.assistant([text('Fixed and built.')]);

	b.user('Check the logs.');
	b.assistant([toolCall('l1', 'bash', { command: 'tail logs/a.log' }), toolCall('l2', 'bash', { command: 'tail logs/b.log' })]);
	b.toolResult('l1', 'bash', output('loga', 1600));
	b.toolResult('l2', 'bash', output('logb', 1600));
	b.assistant([text('Logs are clean.')]);
	if (second) {
		b.user('Read util.ts again and grep for TODOs.');
		b.assistant([toolCall('r3', 'read', { path: 'src/util.ts' }), toolCall('g1', 'bash', { command: 'grep -rn TODO src' })]);
		b.toolResult('r3', 'read', output('util', 1800));
		b.toolResult('g1', 'bash', output('grep', 1400));
		b.assistant([text('util.ts is unchanged; two TODOs.')]);
		b.user('Summarize the state.');
		b.assistant([toolCall('s1', 'bash', { command: 'git status' })]);
		b.toolResult('s1', 'bash', output('status', 1300));
		b.assistant([text('Everything is committed.')]);
	}
	return b;
}

/** Short summaries labelled per call; the batch running OVERSIZED_MARKER gets a huge one. */
export function richReply(request: SummarizeRequest): string {
	if (request.input?.kind === 'range') {
		return `Fused: ${request.input.summaries.length} steps.`;
	}
	const calls = request.input?.kind === 'batch' ? request.input.calls : [];
	if (request.prompt.includes(OVERSIZED_MARKER)) {
		return calls.map((call) => `- ${call.label} ${'verbose '.repeat(400)}`).join('\n');
	}
	return calls.map((call) => `- ${call.label} ${call.toolName} done`).join('\n');
}
