/**
 * A stand-in for a running Pi, as a separate process: on each request it appends Pi-like entries
 * to a session file the way Pi does (one `appendFileSync(path, JSON.stringify(entry) + "\n")` per
 * entry) at random intervals, chaining each entry from its own in-memory leaf (it never re-reads
 * the file, like Pi), and reports the exact lines it wrote.
 *
 * Its ids follow Pi's rule (`generateId` in Pi's session manager): 8 hex characters, drawn again
 * while an entry it knows has them, knowing the entries in the file when it starts (Pi indexes
 * the session when it opens it) and its own. Until this rule, the ids were the seed's low 16 bits
 * then a counter, so a seed that is a multiple of 0xffff (720885: trial 129 of seed 720756 in the
 * concurrent-writer test) wrote `00000001` and `00000002` again, the ids of the test session's
 * first two entries. Our writer then rightly refused the file (duplicate ids are diagnostics),
 * and the test reported the simulator's duplicates as a broken file.
 *
 * Protocol (IPC): receives `SimulatedPiRequest`, answers `SimulatedPiReply`.
 */
import { appendFileSync, readFileSync } from 'node:fs';
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
	/**
	 * For each line, `process.hrtime.bigint()` (as decimal strings: IPC carries JSON) right before
	 * and right after its `appendFileSync`: the monotonic clock is the same in every process, so a
	 * test can tell whether an append fell inside a window another process measured.
	 */
	readonly appendedAt: readonly (readonly [string, string])[];
}

const usage = { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };

/** Appends as Pi would; the child process runs this for each request, a test may call it directly. */
export async function runSimulatedPi(request: SimulatedPiRequest): Promise<SimulatedPiReply> {
	const random = new Random(request.seed);
	const taken = idsIn(request.file);
	const lines: string[] = [];
	const appendedAt: [string, string][] = [];
	let leafId = request.leafId;
	let openCall: string | undefined;
	for (let n = 0; n < request.entries; n++) {
		const delay = random.int(0, request.maxDelayMs);
		if (delay > 0) {
			await new Promise((done) => setTimeout(done, delay));
		}
		const id = newId(random, taken);
		const entry = { type: 'message', id, parentId: leafId, timestamp: new Date().toISOString(), message: nextMessage(random, n, id, openCall) };
		openCall = entry.message.role === 'assistant' && entry.message.stopReason === 'toolUse' ? `call-${id}` : undefined;
		const line = `${JSON.stringify(entry)}\n`;
		const before = process.hrtime.bigint();
		appendFileSync(request.file, line);
		appendedAt.push([String(before), String(process.hrtime.bigint())]);
		lines.push(line);
		leafId = id;
	}
	return { lines, appendedAt };
}

/** The ids of the entries in a session file, as Pi indexes them when it opens the session. */
function idsIn(file: string): Set<string> {
	const ids = new Set<string>();
	// The last line may be one our writer is appending right now: only whole lines count.
	for (const line of readFileSync(file, 'utf8').split('\n').slice(0, -1)) {
		const id = (JSON.parse(line) as { id?: unknown }).id;
		if (typeof id === 'string') {
			ids.add(id);
		}
	}
	return ids;
}

/** Pi's id rule: 8 random hex characters, drawn again while taken. */
function newId(random: Random, taken: Set<string>): string {
	for (;;) {
		const id = random.int(0, 0xffff_ffff).toString(16).padStart(8, '0');
		if (!taken.has(id)) {
			taken.add(id);
			return id;
		}
	}
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

// Only as the forked process (out/test/support/simulatedPi.js), not when a test imports the function.
if (require.main === module) {
	process.on('message', (request: SimulatedPiRequest) => {
		void runSimulatedPi(request).then((reply) => process.send?.(reply));
	});
}
