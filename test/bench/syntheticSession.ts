/**
 * Generates a large, realistic Pi session (v3) deterministically from a seed: prompts, assistant
 * turns with thinking and parallel tool calls, results of widely varied sizes (log lines, source
 * files, directory listings, JSON), failed edits with large arguments, and final replies.
 */
import { Random } from '../support/random';

export interface SyntheticOptions {
	readonly targetBytes: number;
	readonly seed: number;
}

const tools = ['bash', 'read', 'edit', 'write', 'grep'] as const;
const words = 'error warning request handler module config parser token stream buffer index cache session import export function return const value result status build test deploy'.split(' ');

export function* syntheticSessionLines(options: SyntheticOptions): Generator<string> {
	const random = new Random(options.seed);
	let clock = Date.parse('2026-03-01T09:00:00.000Z');
	let counter = 0;
	let parentId: string | null = null;
	let bytes = 0;
	const nextId = () => (++counter).toString(16).padStart(8, '0');
	const emit = (entry: Record<string, unknown>): string => {
		clock += random.int(5, 4000);
		const line = JSON.stringify({ ...entry, timestamp: new Date(clock).toISOString() });
		bytes += line.length + 1;
		return line;
	};
	const chain = (fields: Record<string, unknown>): string => {
		const id = nextId();
		const line = emit({ type: fields['type'], id, parentId, ...fields });
		parentId = id;
		return line;
	};
	yield emit({ type: 'session', version: 3, id: '01900000-0000-7000-8000-000000000001', cwd: '/home/dev/projects/synthetic' });
	yield chain({ type: 'model_change', provider: 'anthropic', modelId: 'claude-sonnet-4-5' });
	yield chain({ type: 'thinking_level_change', thinkingLevel: 'medium' });
	let callCounter = 0;
	while (bytes < options.targetBytes) {
		yield chain({ type: 'message', message: { role: 'user', content: [{ type: 'text', text: sentence(random, random.int(8, 60)) }], timestamp: clock } });
		const turns = random.int(1, 12);
		for (let turn = 0; turn < turns; turn++) {
			const calls = Array.from({ length: random.int(1, 4) }, () => {
				const name = random.pick(tools);
				callCounter++;
				return { type: 'toolCall', id: `toolu_${callCounter.toString(36).padStart(6, '0')}`, name, arguments: toolArgs(random, name) };
			});
			const content: Record<string, unknown>[] = [];
			if (random.chance(0.6)) {
				content.push({ type: 'thinking', thinking: sentence(random, random.int(20, 400)), thinkingSignature: `sig${callCounter}`.padEnd(120, 'x') });
			}
			if (random.chance(0.3)) {
				content.push({ type: 'text', text: sentence(random, random.int(5, 40)) });
			}
			content.push(...calls);
			yield chain({ type: 'message', message: assistant(content, 'toolUse', clock) });
			for (const call of calls) {
				const isError = call.name === 'edit' && random.chance(0.15);
				const text = isError ? 'Could not find the exact text in the file. The old text must match exactly.' : toolOutput(random, call.name);
				yield chain({ type: 'message', message: { role: 'toolResult', toolCallId: call.id, toolName: call.name, content: [{ type: 'text', text }], isError, timestamp: clock } });
			}
		}
		yield chain({ type: 'message', message: assistant([{ type: 'text', text: sentence(random, random.int(10, 120)) }], 'stop', clock) });
	}
}

function assistant(content: Record<string, unknown>[], stopReason: string, timestamp: number): Record<string, unknown> {
	return {
		role: 'assistant', content, api: 'anthropic-messages', provider: 'anthropic', model: 'claude-sonnet-4-5',
		usage: { input: 12000, output: 400, cacheRead: 10000, cacheWrite: 2000, totalTokens: 24400, cost: { input: 0.036, output: 0.006, cacheRead: 0.003, cacheWrite: 0.0075, total: 0.0525 } },
		stopReason, timestamp,
	};
}

function toolArgs(random: Random, name: string): Record<string, unknown> {
	const path = `src/${random.pick(words)}/${random.pick(words)}.ts`;
	switch (name) {
		case 'bash': return { command: `npm run ${random.pick(words)} -- --${random.pick(words)}` };
		case 'read': return { path };
		case 'grep': return { pattern: random.pick(words), path: 'src' };
		case 'edit': return { path, edits: [{ oldText: sourceCode(random, random.int(1, 40)), newText: sourceCode(random, random.int(1, 40)) }] };
		default: return { path, content: sourceCode(random, random.int(20, 400)) };
	}
}

function toolOutput(random: Random, name: string): string {
	// Heavy-tailed sizes, as in real sessions: most results are small, a few are very large.
	const bucket = random.next();
	const size = bucket < 0.8 ? random.int(40, 2000) : bucket < 0.98 ? random.int(2000, 20000) : random.int(20000, 200000);
	if (name === 'read' || name === 'write') {
		return sourceCode(random, Math.max(1, Math.floor(size / 40)));
	}
	const lines: string[] = [];
	let length = 0;
	while (length < size) {
		const line = `${new Date(1767225600000 + lines.length * 1000).toISOString()} ${random.pick(['INFO', 'WARN', 'ERROR', 'DEBUG'])} ${sentence(random, random.int(3, 14))}`;
		lines.push(line);
		length += line.length + 1;
	}
	return lines.join('\n');
}

function sourceCode(random: Random, lineCount: number): string {
	const lines: string[] = [];
	for (let i = 0; i < lineCount; i++) {
		lines.push(`${'\t'.repeat(random.int(0, 3))}const ${random.pick(words)}${i} = ${random.pick(words)}(${random.pick(words)}, "${random.pick(words)}");`);
	}
	return lines.join('\n');
}

function sentence(random: Random, wordCount: number): string {
	return Array.from({ length: wordCount }, () => random.pick(words)).join(' ');
}
