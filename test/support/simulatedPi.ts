/**
 * A stand-in for a running Pi, as a separate process: on each request it appends Pi-like entries
 * to a session file the way Pi does (one `appendFileSync(path, JSON.stringify(entry) + "\n")` per
 * entry) at random intervals, chaining each entry from its own in-memory leaf (it never re-reads
 * the file, like Pi), and reports the exact lines it wrote.
 *
 * Protocol (IPC): receives `SimulatedPiRequest`, answers `SimulatedPiReply`.
 */
import { appendFileSync } from 'node:fs';
import { Random } from './random';

export interface SimulatedPiRequest {
	readonly file: string;
	readonly leafId: string;
	readonly entries: number;
	readonly maxDelayMs: number;
	readonly seed: number;
}

export interface SimulatedPiReply {
	readonly lines: readonly string[];
}

const usage = { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };

async function run(request: SimulatedPiRequest): Promise<SimulatedPiReply> {
	const random = new Random(request.seed);
	const lines: string[] = [];
	let leafId = request.leafId;
	let openCall: string | undefined;
	for (let n = 0; n < request.entries; n++) {
		const delay = random.int(0, request.maxDelayMs);
		if (delay > 0) {
			await new Promise((done) => setTimeout(done, delay));
		}
		const id = `${(request.seed % 0xffff).toString(16).padStart(4, '0')}${n.toString(16).padStart(4, '0')}`;
		const entry = { type: 'message', id, parentId: leafId, timestamp: new Date().toISOString(), message: nextMessage(random, n, id, openCall) };
		openCall = entry.message.role === 'assistant' && entry.message.stopReason === 'toolUse' ? `call-${id}` : undefined;
		const line = `${JSON.stringify(entry)}\n`;
		appendFileSync(request.file, line);
		lines.push(line);
		leafId = id;
	}
	return { lines };
}

type Message = Record<string, unknown> & { role: string; stopReason?: string };

/** A plausible turn sequence: tool calls are always followed by their result, some outputs are large. */
function nextMessage(random: Random, n: number, id: string, openCall: string | undefined): Message {
	const timestamp = Date.now();
	if (openCall !== undefined) {
		const size = random.chance(0.2) ? random.int(10_000, 200_000) : random.int(1, 400);
		return { role: 'toolResult', toolCallId: openCall, toolName: 'bash', content: [{ type: 'text', text: 'x'.repeat(size) }], isError: false, timestamp };
	}
	if (random.chance(0.4)) {
		return { role: 'user', content: [{ type: 'text', text: `step ${n} é\u2028` }], timestamp };
	}
	const callsTool = random.chance(0.5);
	return {
		role: 'assistant',
		content: callsTool ? [{ type: 'toolCall', id: `call-${id}`, name: 'bash', arguments: { command: 'ls' } }] : [{ type: 'text', text: `answer ${n}` }],
		api: 'anthropic-messages',
		provider: 'anthropic',
		model: 'claude-sonnet-4-5',
		usage,
		stopReason: callsTool ? 'toolUse' : 'stop',
		timestamp,
	};
}

process.on('message', (request: SimulatedPiRequest) => {
	void run(request).then((reply) => process.send?.(reply));
});
