/**
 * A long synthetic session as pi-condense would leave it, for the preview's benchmark and its
 * DOM-bound test: the benchmark's synthetic Pi session (prompts, thinking, parallel tool calls,
 * heavy-tailed outputs, failed edits) cut at a number of context messages, with a
 * `context-prune-index` and a `context-prune-summary` after every closed turn and a
 * `context-prune-chain` for every closed chain but the newest three.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { syntheticSessionLines } from '../bench/syntheticSession';

type Entry = Record<string, unknown>;
interface Message { role: string; timestamp: number; content: Entry[]; toolCallId?: string; toolName?: string; stopReason?: string }

const ROLLING_WINDOW = 3;

export interface PrunedSyntheticOptions {
	readonly contextMessages: number;
	/** Cut tool outputs longer than this (the generator's tail reaches 200 KB). */
	readonly maxOutputChars?: number;
	readonly seed?: number;
}

export function prunedSyntheticSessionText(options: PrunedSyntheticOptions): string {
	const { contextMessages, maxOutputChars = Number.POSITIVE_INFINITY, seed = 7 } = options;
	const out: string[] = [];
	let previousId: string | null = null;
	let counter = 0;
	let lastTimestamp = '';
	const write = (entry: Entry): void => {
		const id = `e${(++counter).toString(36).padStart(7, '0')}`;
		const timestamp = typeof entry.timestamp === 'string' ? entry.timestamp : lastTimestamp;
		lastTimestamp = timestamp;
		out.push(JSON.stringify({ ...entry, id, parentId: previousId, timestamp }));
		previousId = id;
	};
	let messages = 0;
	let refNumber = 1;
	let blockNumber = 1;
	let turn: { start: number; calls: Map<string, { name: string; args: unknown }>; results: Entry[]; refs: string[] } | undefined;
	const closed: { start: number; final: number; ids: string[]; refs: string[]; summary: string }[] = [];
	for (const line of syntheticSessionLines({ targetBytes: Number.MAX_SAFE_INTEGER, seed })) {
		const entry = JSON.parse(line) as Entry;
		if (entry.type === 'session') {
			out.push(line);
			continue;
		}
		if (messages >= contextMessages) {
			break;
		}
		delete entry.id;
		delete entry.parentId;
		const message = entry.message as Message | undefined;
		const output = message?.role === 'toolResult' ? message.content[0] : undefined;
		if (output && typeof output.text === 'string' && output.text.length > maxOutputChars) {
			output.text = output.text.slice(0, maxOutputChars);
		}
		write(entry);
		if (!message) {
			continue;
		}
		messages++;
		if (message.role === 'user') {
			turn = { start: message.timestamp, calls: new Map(), results: [], refs: [] };
		} else if (message.role === 'assistant' && turn) {
			for (const block of message.content) {
				if (block.type === 'toolCall') {
					turn.calls.set(block.id as string, { name: block.name as string, args: block.arguments });
				}
			}
			if (message.stopReason === 'stop' && turn.results.length > 0) {
				const records = turn.results.map((result) => ({
					toolCallId: result.toolCallId, toolName: result.toolName, args: turn?.calls.get(result.toolCallId as string)?.args ?? {},
					resultText: ((result.content as Entry[])[0]?.text as string | undefined) ?? '', isError: result.isError, turnIndex: 0, timestamp: result.timestamp,
				}));
				const refs = records.map(() => `t${refNumber++}`);
				const summary = `${records.map((r, i) => `- ${String(r.toolName)} (\`${refs[i] ?? ''}\`): ${r.isError ? 'failed' : 'ok'}`).join('\n')}\n\n---\n**Summarized tool refs**: ${refs.map((r) => `\`${r}\``).join(', ')}\nUse \`context_tree_query\` with these refs to retrieve the original full outputs.`;
				write({ type: 'custom', customType: 'context-prune-index', data: { toolCalls: records } });
				write({ type: 'custom_message', customType: 'context-prune-summary', content: summary, display: false, details: { toolCallRefs: records.map((r, i) => ({ shortId: refs[i], toolCallId: r.toolCallId })), toolNames: records.map((r) => r.toolName), turnIndex: 0, timestamp: message.timestamp } });
				messages++;
				closed.push({ start: turn.start, final: message.timestamp, ids: [...turn.calls.keys()], refs, summary });
				if (closed.length > ROLLING_WINDOW) {
					const chain = closed.shift();
					if (chain) {
						write({ type: 'custom', customType: 'context-prune-chain', data: {
							blockId: `b${blockNumber++}`, startUserTimestamp: chain.start, droppedToolCallIds: chain.ids, finalAssistantTimestamp: chain.final,
							toolRefs: chain.refs, compressedAt: message.timestamp + 1,
						} });
					}
				}
				turn = undefined;
			}
		} else if (message.role === 'toolResult' && turn) {
			turn.results.push(message as unknown as Entry);
		}
	}
	return `${out.join('\n')}\n`;
}

/** A Pi agent dir with the session under `sessions/` and pruning on (thinking strip included). */
export function prunedSyntheticAgentDir(options: PrunedSyntheticOptions, agentDir = mkdtempSync(join(tmpdir(), 'pi-condense-large-'))): { agentDir: string; sessionFile: string; cleanup(): void } {
	const sessions = join(agentDir, 'sessions', '--home-dev-projects-synthetic--');
	mkdirSync(sessions, { recursive: true });
	const sessionFile = join(sessions, 'synthetic.jsonl');
	writeFileSync(sessionFile, prunedSyntheticSessionText(options));
	writeFileSync(join(agentDir, 'settings.json'), JSON.stringify({ contextPrune: { enabled: true, thinkingStrip: { enabled: true, keepLastTurns: 16 } } }, null, 2));
	return { agentDir, sessionFile, cleanup: () => rmSync(agentDir, { recursive: true, force: true }) };
}
