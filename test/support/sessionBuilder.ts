/**
 * Builds small session files for tests, entry by entry, with deterministic ids and timestamps.
 * Output lines are exactly what Pi writes: `JSON.stringify(entry) + "\n"`.
 */

type Json = Record<string, unknown>;

export class SessionBuilder {
	private readonly lines: string[] = [];
	private clock = Date.parse('2026-01-01T00:00:00.000Z');
	private counter = 0;
	leafId: string | null = null;

	constructor(header: Json = {}) {
		this.lines.push(JSON.stringify({ type: 'session', version: 3, id: 'sess-0001', timestamp: this.iso(), cwd: '/work/demo', ...header }));
	}

	/** Milliseconds since the epoch of the next entry (monotonic). */
	tick(): number {
		this.clock += 1000;
		return this.clock;
	}

	iso(at = this.clock): string {
		return new Date(at).toISOString();
	}

	nextId(): string {
		this.counter++;
		return this.counter.toString(16).padStart(8, '0');
	}

	/** Appends a raw entry; `parentId` defaults to the current leaf and the leaf moves to it. */
	entry(fields: Json & { type: string }): string {
		const at = this.tick();
		const id = typeof fields['id'] === 'string' ? fields['id'] : this.nextId();
		const entry = { id, parentId: this.leafId, timestamp: this.iso(at), ...fields };
		this.lines.push(JSON.stringify(entry));
		this.leafId = id;
		return id;
	}

	message(message: Json, extra: Json = {}): string {
		const at = this.clock + 1000;
		return this.entry({ type: 'message', message: { timestamp: at, ...message }, ...extra });
	}

	user(text: string, extra: Json = {}): string {
		return this.message({ role: 'user', content: [{ type: 'text', text }] }, extra);
	}

	assistant(content: Json[], extra: Json = {}): string {
		return this.message({
			role: 'assistant',
			content,
			api: 'anthropic-messages',
			provider: 'anthropic',
			model: 'claude-sonnet-4-5',
			usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
			stopReason: content.some((block) => block['type'] === 'toolCall') ? 'toolUse' : 'stop',
		}, extra);
	}

	toolResult(toolCallId: string, toolName: string, text: string, isError = false, extra: Json = {}): string {
		return this.message({ role: 'toolResult', toolCallId, toolName, content: [{ type: 'text', text }], isError }, extra);
	}

	/** Raw text appended as its own line (for malformed-line cases). */
	rawLine(text: string): void {
		this.lines.push(text);
	}

	/** Moves the leaf (as Pi's `/tree` navigation does before appending). */
	branchFrom(id: string | null): void {
		this.leafId = id;
	}

	text(): string {
		return this.lines.map((line) => `${line}\n`).join('');
	}
}

export const toolCall = (id: string, name: string, args: Json): Json => ({ type: 'toolCall', id, name, arguments: args });
export const text = (value: string): Json => ({ type: 'text', text: value });
export const thinking = (value: string): Json => ({ type: 'thinking', thinking: value, thinkingSignature: `sig-${value.length}` });
