/**
 * Turns a demo script into the lines Pi itself would write: the header, the initial model and
 * thinking-level entries, and for each prompt the user message, the assistant turns with their
 * tool results, and the final reply, each chained to the previous entry. Pure: time and ids come
 * from the caller.
 */
import type { DemoPrompt, DemoSessionScript, DemoTurn } from './demoScript';

export interface DemoWriterContext {
	/** Epoch ms for the next entry; each call moves time forward. */
	readonly tick: (ms: number) => number;
	/** A fresh 8-hex id not used in the file yet. */
	readonly newId: () => string;
}

export interface DemoLines {
	readonly lines: readonly string[];
	readonly leafId: string;
}

const provider = 'anthropic';
const modelId = 'claude-sonnet-4-5';

export function headerLine(script: DemoSessionScript, sessionId: string, at: number): string {
	return JSON.stringify({ type: 'session', version: 3, id: sessionId, timestamp: new Date(at).toISOString(), cwd: script.cwd });
}

/** What Pi writes when a session starts: the model, the thinking level, and (here) a name. */
export function openingLines(script: DemoSessionScript, context: DemoWriterContext): DemoLines {
	const writer = new LineWriter(context, null);
	writer.entry({ type: 'model_change', provider, modelId });
	writer.entry({ type: 'thinking_level_change', thinkingLevel: 'medium' });
	if (script.name !== undefined) {
		writer.entry({ type: 'session_info', name: script.name });
	}
	return writer.result();
}

export function promptLines(prompt: DemoPrompt, parentId: string, context: DemoWriterContext, promptIndex: number): DemoLines {
	const writer = new LineWriter(context, parentId);
	writer.message({ role: 'user', content: [{ type: 'text', text: prompt.user }] }, 30_000);
	for (const [turnIndex, turn] of prompt.turns.entries()) {
		writer.message(assistant(turnContent(turn), 'toolUse', promptIndex * 10 + turnIndex), 4_000);
		for (const call of turn.calls) {
			writer.message({ role: 'toolResult', toolCallId: call.id, toolName: call.name, content: [{ type: 'text', text: call.result }], isError: call.isError ?? false }, 1_500);
		}
	}
	writer.message(assistant([{ type: 'text', text: prompt.reply }], 'stop', promptIndex * 10 + 9), 6_000);
	return writer.result();
}

function turnContent(turn: DemoTurn): Record<string, unknown>[] {
	const content: Record<string, unknown>[] = [];
	if (turn.thinking !== undefined) {
		content.push({ type: 'thinking', thinking: turn.thinking, thinkingSignature: `demo-signature-${turn.thinking.length.toString(16)}` });
	}
	if (turn.text !== undefined) {
		content.push({ type: 'text', text: turn.text });
	}
	for (const call of turn.calls) {
		content.push({ type: 'toolCall', id: call.id, name: call.name, arguments: call.args });
	}
	return content;
}

/** An assistant message with usage figures that grow through the session, as real ones do. */
function assistant(content: Record<string, unknown>[], stopReason: string, step: number): Record<string, unknown> {
	const input = 2_400 + step * 650;
	const cacheRead = Math.max(0, input - 900);
	const output = 180 + (step % 7) * 45;
	const usage = {
		input: input - cacheRead, output, cacheRead, cacheWrite: 900,
		totalTokens: input + output + 900,
		cost: { input: (input - cacheRead) * 3e-6, output: output * 15e-6, cacheRead: cacheRead * 0.3e-6, cacheWrite: 900 * 3.75e-6, total: 0 },
	};
	usage.cost.total = usage.cost.input + usage.cost.output + usage.cost.cacheRead + usage.cost.cacheWrite;
	return { role: 'assistant', content, api: 'anthropic-messages', provider, model: modelId, usage, stopReason };
}

class LineWriter {
	private readonly lines: string[] = [];

	constructor(private readonly context: DemoWriterContext, private parentId: string | null) {}

	entry(fields: Record<string, unknown>, afterMs = 200): void {
		const at = this.context.tick(afterMs);
		const id = this.context.newId();
		this.lines.push(JSON.stringify({ type: fields['type'], id, parentId: this.parentId, timestamp: new Date(at).toISOString(), ...fields }));
		this.parentId = id;
	}

	message(message: Record<string, unknown>, afterMs: number): void {
		const at = this.context.tick(afterMs);
		const id = this.context.newId();
		this.lines.push(JSON.stringify({ type: 'message', id, parentId: this.parentId, timestamp: new Date(at + 1).toISOString(), message: { ...message, timestamp: at } }));
		this.parentId = id;
	}

	result(): DemoLines {
		if (this.parentId === null) {
			throw new Error('a demo block wrote no entry');
		}
		return { lines: this.lines, leafId: this.parentId };
	}
}
