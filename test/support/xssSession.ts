/**
 * A session full of script-injection payloads, built on the real pi-condense `basic` session: the
 * payloads go into user and assistant text, thinking, tool names, tool-call ids and arguments,
 * tool results (raw, and summarized so that stubs, stub heads and recovered outputs carry them),
 * summaries (rendered as markdown), a compressed chain's body and the session name.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { piCondenseSessionsDir } from './paths';
import { XSS_PAYLOADS, type XssPayload } from './xssPayloads';

type Line = Record<string, unknown>;

/** `hostile`: the script-injection payloads by default; the link test passes its own. */
export function writeXssSession(file: string, hostile: readonly XssPayload[] = XSS_PAYLOADS): void {
	const lines = readFileSync(join(piCondenseSessionsDir, 'basic', 'session.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Line);
	const payloads = hostile.map((p) => p.text);
	for (const line of lines) {
		const data = line.data as { rangeSummaryText?: string; toolCalls?: { resultText: string }[] } | undefined;
		if (line.customType === 'context-prune-chain' && data?.rangeSummaryText !== undefined) {
			data.rangeSummaryText += `\n\n${payloads.slice(0, 6).join('\n\n')}`;
		}
		for (const record of data?.toolCalls ?? []) {
			record.resultText += `\n${payloads.slice(6, 10).join('\n')}`;
		}
	}
	let parentId = lines.at(-1)?.id as string;
	let clock = Date.parse('2026-11-30T07:00:00.000Z');
	let counter = 0;
	const push = (fields: Line): Line => {
		clock += 1000;
		const line = { id: `ff${(++counter).toString(16).padStart(6, '0')}`, parentId, timestamp: new Date(clock).toISOString(), ...fields };
		parentId = line.id;
		lines.push(line);
		return line;
	};
	const message = (message: Line): Line => push({ type: 'message', message: { ...message, timestamp: clock + 1000 } });
	const summarized: { id: string; name: string; text: string; resultTs: number }[] = [];
	hostile.forEach((payload, i) => {
		const callId = i % 4 === 0 ? `call_${payload.id}"><img src=x onerror=__xssSentinel('id-${payload.id}')>` : `call_${payload.id}`;
		const name = i % 3 === 0 ? `tool<img src=x onerror=__xssSentinel('name-${payload.id}')>` : 'bash';
		message({ role: 'user', content: [{ type: 'text', text: `Question ${payload.id}: ${payload.text}` }] });
		message({
			role: 'assistant', api: 'openai-completions', provider: 'fake', model: 'fake-model', stopReason: 'toolUse',
			usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
			content: [
				{ type: 'thinking', thinking: `thinking ${payload.text}`, thinkingSignature: 'sig' },
				{ type: 'text', text: `Calling ${payload.text}` },
				{ type: 'toolCall', id: callId, name, arguments: { path: payload.text, [payload.text]: payload.text } },
			],
		});
		const result = message({ role: 'toolResult', toolCallId: callId, toolName: name, content: [{ type: 'text', text: `output ${payload.text}` }], isError: i % 5 === 0 });
		if (i < 12) {
			summarized.push({ id: callId, name, text: `output ${payload.text}`, resultTs: (result.message as { timestamp: number }).timestamp });
		}
		push({
			type: 'custom_message', customType: 'context-prune-summary', display: false,
			content: `- summary of ${payload.id}: ${payload.text}\n\n${payload.text}`,
			details: { toolCallRefs: [], toolNames: [], turnIndex: 0, timestamp: clock },
		});
		message({
			role: 'assistant', api: 'openai-completions', provider: 'fake', model: 'fake-model', stopReason: 'stop',
			usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
			content: [{ type: 'text', text: `Done: ${payload.text}` }],
		});
	});
	push({
		type: 'custom', customType: 'context-prune-index',
		data: { toolCalls: summarized.map((s, i) => ({ toolCallId: s.id, toolName: s.name, args: { path: hostile[i]?.text }, resultText: s.text, isError: false, turnIndex: 9, timestamp: s.resultTs })) },
	});
	push({
		type: 'custom_message', customType: 'context-prune-summary', display: false,
		content: `Summary with refs ${summarized.map((_, i) => `\`t${20 + i}\``).join(', ')} and ${hostile[0]?.text ?? ''}`,
		details: { toolCallRefs: summarized.map((s, i) => ({ shortId: `t${20 + i}`, toolCallId: s.id })), toolNames: summarized.map((s) => s.name), turnIndex: 9, timestamp: clock },
	});
	push({ type: 'session_info', name: `session ${hostile[1]?.text ?? ''}` });
	writeFileSync(file, `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
}
