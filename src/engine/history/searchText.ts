/**
 * The text of a message that search looks in: what the user and the assistant wrote, the tools
 * called with the start of their arguments, small tool outputs, the user's `!` commands, extension
 * messages (pi-condense's summaries) and compaction summaries. Large tool outputs stay out: they
 * are most of a history's bytes and would make the index as large as the history. Pure.
 */
import { isPlainObject } from '../../base/plainObject';
import { cutText } from '../session/summary';
import type { DocRole } from './historyRecords';
import type { LineReading } from './rawLine';

/** Longest text kept of one message (a pasted log is searched by its start). */
export const DOC_MAX_CHARS = 4000;

/** A tool output is searched when its whole line is at most this long (a short error, a path, a count). */
export const SMALL_TOOL_RESULT_BYTES = 600;

/** Characters kept of each argument of a tool call, and of all of them. */
const ARGUMENT_MAX_CHARS = 120;
const ARGUMENTS_MAX_CHARS = 240;

/** How much of a `!` command's output is kept. */
const BASH_OUTPUT_MAX_CHARS = 200;

export interface DocText {
	readonly role: DocRole;
	readonly text: string;
}

/** Reads a string value as the file's UTF-8 text has it (see `rawLine.ts`). */
export type TextReader = (value: string) => string;

/** The searchable text of a message (a `custom_message` entry passes `{ role: 'custom', content }`); undefined when it has none. */
export function messageSearchText(message: Record<string, unknown>, lineBytes: number, strings: LineReading): DocText | undefined {
	const { text } = strings;
	switch (message.role) {
		case 'user':
			return docText('user', contentText(message.content, ' ', text));
		case 'custom':
			return docText('custom', contentText(message.content, '\n', text));
		case 'assistant':
			return docText('assistant', assistantText(message.content, strings));
		case 'toolResult': {
			if (lineBytes > SMALL_TOOL_RESULT_BYTES) {
				return undefined;
			}
			const output = contentText(message.content, '\n', text);
			const name = typeof message.toolName === 'string' ? clip(message.toolName, text, ARGUMENT_MAX_CHARS) : '';
			return output === '' ? undefined : docText('tool', name === '' ? output : `${name}: ${output}`);
		}
		case 'bashExecution': {
			const command = typeof message.command === 'string' ? clip(message.command, text, DOC_MAX_CHARS) : '';
			const output = typeof message.output === 'string' ? clip(message.output, text, BASH_OUTPUT_MAX_CHARS) : '';
			return docText('bash', command === '' ? '' : `!${command}${output === '' ? '' : `\n${output}`}`);
		}
		default:
			return undefined;
	}
}

/** A compaction's or branch summary's text. */
export function summarySearchText(summary: unknown, text: TextReader): DocText | undefined {
	return typeof summary === 'string' ? docText('summary', clip(summary, text, DOC_MAX_CHARS)) : undefined;
}

function docText(role: DocRole, text: string): DocText | undefined {
	const kept = cutText(text, DOC_MAX_CHARS);
	return kept.trim() === '' ? undefined : { role, text: kept };
}

/** A string, or the text blocks of a content list joined by `separator` (Pi's own joining for a user message). */
function contentText(content: unknown, separator: string, text: TextReader): string {
	if (typeof content === 'string') {
		return clip(content, text, DOC_MAX_CHARS);
	}
	if (!Array.isArray(content)) {
		return '';
	}
	const parts: string[] = [];
	let length = 0;
	for (const block of content) {
		if (length >= DOC_MAX_CHARS) {
			break;
		}
		if (isPlainObject(block) && block.type === 'text' && typeof block.text === 'string') {
			const part = clip(block.text, text, DOC_MAX_CHARS - length);
			parts.push(part);
			length += part.length + separator.length;
		}
	}
	return parts.join(separator);
}

/** Its text blocks, then each tool call as its name and the start of its arguments; thinking stays out. */
function assistantText(content: unknown, strings: LineReading): string {
	const { text } = strings;
	if (!Array.isArray(content)) {
		return '';
	}
	const parts: string[] = [];
	let length = 0;
	for (const block of content) {
		if (length >= DOC_MAX_CHARS || !isPlainObject(block)) {
			continue;
		}
		let part = '';
		if (block.type === 'text' && typeof block.text === 'string') {
			part = clip(block.text, text, DOC_MAX_CHARS - length);
		} else if (block.type === 'toolCall' && typeof block.name === 'string') {
			part = [clip(block.name, text, ARGUMENT_MAX_CHARS), ...argumentTexts(block.arguments, strings)].join(' ');
		}
		if (part !== '') {
			parts.push(part);
			length += part.length + 1;
		}
	}
	return parts.join('\n');
}

/** The start of each scalar argument (a command, a path, a pattern), within ARGUMENTS_MAX_CHARS in all. */
function argumentTexts(args: unknown, { text, keys }: LineReading): string[] {
	if (!isPlainObject(args)) {
		return [];
	}
	keys(args); // which values come, and in what order, depends on the keys (see `lineReading`)
	const out: string[] = [];
	let length = 0;
	for (const value of Object.values(args)) {
		if (length >= ARGUMENTS_MAX_CHARS) {
			break;
		}
		const part = typeof value === 'string' ? clip(value, text, Math.min(ARGUMENT_MAX_CHARS, ARGUMENTS_MAX_CHARS - length))
			: typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';
		if (part !== '') {
			out.push(part);
			length += part.length + 1;
		}
	}
	return out;
}

/**
 * At most `max` characters of a string value as the file's text has it. Cut before decoding too (4
 * bytes of UTF-8 make at least one UTF-16 unit, so a character cut there is never kept).
 */
export function clip(value: string, text: TextReader, max: number): string {
	return cutText(text(value.length > max * 4 ? value.slice(0, max * 4) : value), max);
}
