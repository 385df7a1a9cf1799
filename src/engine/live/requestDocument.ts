/**
 * A model request a live Pi made, as a document to read and to compare: the system messages, then
 * every message as one block of readable JSON (`readableJson.ts`), then the provider payload when
 * there is one. Two requests written this way differ line for line only where their messages do: a
 * message is always written the same way, each block begins with a line of its own (its comma
 * included, so adding a message after the last one changes no line above it), and nothing in a
 * block depends on where the message stands. The whole is one JSONC object. Pure, in steps.
 */
import { Pacer, type Steps } from '../steps';
import { jsonArrayItemsSteps, parseJsonSteps } from './jsonParts';
import { readableJsonSteps } from './readableJson';

/** One message, written: its block of lines (at the messages' level) and what it is. */
export interface WrittenMessage {
	/** `user`, `assistant`, `toolResult · bash`, … */
	readonly label: string;
	readonly text: string;
	readonly lines: number;
}

/** A request's system messages and messages, written. */
export interface WrittenRequest {
	/** The system part, written as the document's `"system"` member (undefined when Pi gave none). */
	readonly system: string | undefined;
	readonly messages: readonly WrittenMessage[];
}

/** What the document's first lines say about the request. */
export interface RequestHead {
	readonly seq: number;
	readonly at: number;
	readonly pid: number;
	readonly piVersion: string;
	readonly model: string | undefined;
	readonly sessionFile: string | undefined;
}

const MESSAGE_LEVEL = 2;

const lineCount = (text: string): number => {
	let count = 1;
	for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) {
		count++;
	}
	return count;
};

/** The value of a JSON text, read a part at a time; undefined when it is not JSON. */
function* parsedSteps(text: string): Steps<{ readonly value: unknown } | undefined> {
	try {
		return { value: yield* parseJsonSteps(text) };
	} catch {
		return undefined;
	}
}

function labelOf(message: unknown): string {
	if (typeof message !== 'object' || message === null) {
		return typeof message;
	}
	const { role, toolName } = message as { role?: unknown; toolName?: unknown };
	const name = typeof role === 'string' ? role.replace(/[^\w-]/g, '').slice(0, 40) || '?' : '?';
	return typeof toolName === 'string' ? `${name} · ${toolName.replace(/[^\w.-]/g, '').slice(0, 60)}` : name;
}

/**
 * A part's value written as the member `key` of the document's object (its first line starting with
 * `"key": `, its last ending with `suffix`): its JSON text parsed, or the text itself (folded) when it is not JSON.
 */
export function* writtenPartSteps(text: string, key: 'system' | 'payload', suffix = ''): Steps<string> {
	const value = yield* parsedSteps(text);
	return yield* readableJsonSteps(value ? value.value : text, 1, `"${key}": `, suffix);
}

/** The messages' JSON text (an array), written message by message. */
export function* writtenMessagesSteps(text: string): Steps<WrittenMessage[]> {
	const items = (yield* jsonArrayItemsSteps(text)) ?? [text];
	const written: WrittenMessage[] = [];
	// One pacer for all: thousands of small messages are as long a pass as one large one.
	const pacer = new Pacer();
	for (const item of items) {
		if (pacer.due(item.length)) {
			yield;
		}
		const value = yield* parsedSteps(item);
		const block = yield* readableJsonSteps(value ? value.value : item, MESSAGE_LEVEL, '', '', pacer);
		written.push({ label: value ? labelOf(value.value) : 'not JSON', text: block, lines: lineCount(block) });
	}
	return written;
}

/** A request's system messages and messages, from their JSON texts (the system part may be missing). */
export function* writtenRequestSteps(systemText: string | undefined, messagesText: string): Steps<WrittenRequest> {
	const system = systemText === undefined ? undefined : yield* writtenPartSteps(systemText, 'system', ',');
	return { system, messages: yield* writtenMessagesSteps(messagesText) };
}

export interface RequestDocument {
	readonly text: string;
	/** The 0-based line of each message's first line (its label). */
	readonly messageLines: readonly number[];
	readonly systemLine: number;
}

/** The payload's place: written as the document's `"payload"` member (`writtenPartSteps`), or why it is not in the document. */
export type PayloadPart = { readonly written: string } | { readonly missing: string };

/** A text on one comment line: a line break in a file name or a version would end the comment. */
// eslint-disable-next-line no-control-regex -- control characters (line breaks among them) are what is replaced
const oneLine = (text: string): string => text.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, ' ');

/** The document: head, then `{ "system", "messages", "payload" }`. */
export function requestDocument(head: RequestHead, request: WrittenRequest, payload: PayloadPart): RequestDocument {
	const lines: string[] = [
		oneLine(`// Request ${head.seq} that Pi ${head.piVersion} (pid ${head.pid}) sent at ${new Date(head.at).toISOString()}${head.model ? ` to ${head.model}` : ''}.`),
		oneLine(`// Session: ${head.sessionFile ?? '(kept in memory)'}`),
		'// Written for reading: keys in a fixed order, one block per message, long strings folded into pieces.',
		'{',
	];
	const systemLine = lines.length;
	lines.push(request.system ?? '  "system": null, // Pi gave no system messages for this request');
	lines.push('  "messages": [');
	let at = lines.length + (request.system === undefined ? 0 : lineCount(request.system) - 1);
	const messageLines: number[] = [];
	// Concatenated, not joined: a document of megabytes is not copied here (whoever reads it flattens it once).
	let text = lines.join('\n');
	request.messages.forEach((message, index) => {
		messageLines.push(at);
		text = `${text}\n    ${index === 0 ? '' : ', '}// ── ${message.label}\n${message.text}`;
		at += 1 + message.lines;
	});
	const tail = 'written' in payload
		? ['  ],', payload.written, '}']
		: ['  ]', oneLine(`  // payload: ${payload.missing}`), '}'];
	return { text: `${text}\n${tail.join('\n')}\n`, messageLines, systemLine };
}
