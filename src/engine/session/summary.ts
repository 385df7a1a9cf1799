/**
 * A session's list-view summary (name, first user message, counts, last activity), computed the
 * way Pi's session list computes it (`buildSessionInfo` in Pi 0.73.1) and updated incrementally as
 * lines are appended. Pure.
 *
 * Pi's rules, kept here: the first parsed line is the header; the name is the last `session_info`
 * in file order (trimmed, empty or missing clears it); the first message is the first user message
 * with non-empty text (a string, or its text blocks joined with a space); `messageCount` counts
 * every `message` entry; "modified" is the newest user/assistant `message.timestamp` (else the
 * entry timestamp), else the header timestamp, else the file mtime. Where Pi throws on a malformed
 * entry and drops the whole session, this summary skips the entry instead.
 */
import { splitJsonlLines } from './jsonl';
import { timestampMs } from '../../base/isoTime';
import { isPlainObject } from '../../base/plainObject';

/** Longest first-message text kept; a summary is for a list row, and 2,000 sessions are cached. */
export const FIRST_MESSAGE_MAX_CHARS = 2000;

export interface SessionSummary {
	/** What the first parsed line was: a session header, something else, or nothing yet. */
	readonly header: 'session' | 'other' | 'none';
	readonly headerTimestamp: string | undefined;
	readonly name: string | undefined;
	/** Text of the first user message with text (cut to FIRST_MESSAGE_MAX_CHARS); Pi shows "(no messages)" when absent. */
	readonly firstUserMessage: string | undefined;
	/** Parsed entries after the header. */
	readonly entryCount: number;
	/** Entries of type `message` (Pi's count: tool results and custom messages included). */
	readonly messageCount: number;
	/** Newest user/assistant activity in epoch ms, Pi's `getLastActivityTime`; undefined when none. */
	readonly lastActivity: number | undefined;
	/** Complete lines that were not a JSON object (Pi drops them silently). */
	readonly invalidLineCount: number;
	/** `\n`-terminated lines consumed so far, blank ones included. */
	readonly lineCount: number;
}

export const EMPTY_SUMMARY: SessionSummary = {
	header: 'none',
	headerTimestamp: undefined,
	name: undefined,
	firstUserMessage: undefined,
	entryCount: 0,
	messageCount: 0,
	lastActivity: undefined,
	invalidLineCount: 0,
	lineCount: 0,
};

/**
 * Advances `previous` over `text`, the complete lines that follow what it has seen. A trailing
 * unterminated line in `text` is ignored: the caller passes it again once it is complete.
 *
 * @example
 * const s1 = summarizeLines(EMPTY_SUMMARY, headerLine + '\n' + userLine + '\n');
 * const s2 = summarizeLines(s1, assistantLine + '\n'); // same as summarizing all three at once
 */
export function summarizeLines(previous: SessionSummary, text: string): SessionSummary {
	const split = splitJsonlLines(text, previous.lineCount + 1);
	if (split.consumedLineCount === 0) {
		return previous;
	}
	const next: SummaryDraft = { ...previous, lineCount: previous.lineCount + split.consumedLineCount };
	for (const { text: lineText } of split.lines) {
		let value: unknown;
		try {
			value = JSON.parse(lineText);
		} catch {
			value = undefined;
		}
		summarizeValue(next, value);
	}
	return next;
}

/** A summary being advanced in place by `summarizeValue` (a copy the caller owns). */
export type SummaryDraft = Mutable<SessionSummary>;

/**
 * Advances `draft` over one non-blank line, given as what `JSON.parse` made of it (undefined when
 * it did not parse). The caller counts the line itself (`lineCount`). The one rule the list's
 * summary and the history index share.
 */
export function summarizeValue(draft: SummaryDraft, value: unknown): void {
	if (!isPlainObject(value)) {
		draft.invalidLineCount++;
		return;
	}
	if (draft.header === 'none') {
		draft.header = value.type === 'session' ? 'session' : 'other';
		draft.headerTimestamp = typeof value.timestamp === 'string' ? value.timestamp : undefined;
		return;
	}
	draft.entryCount++;
	if (value.type === 'session_info') {
		draft.name = typeof value.name === 'string' ? value.name.trim() || undefined : undefined;
	} else if (value.type === 'message') {
		draft.messageCount++;
		readMessage(value, draft);
	}
}

/** Pi's "modified" time of a session in epoch ms. */
export function sessionModifiedTime(summary: SessionSummary, fileMtimeMs: number): number {
	if (summary.lastActivity !== undefined && summary.lastActivity > 0) {
		return summary.lastActivity;
	}
	return timestampMs(summary.headerTimestamp) ?? fileMtimeMs;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

function readMessage(entry: Record<string, unknown>, summary: Mutable<SessionSummary>): void {
	const message = entry.message;
	if (!isPlainObject(message) || !('content' in message) || (message.role !== 'user' && message.role !== 'assistant')) {
		return;
	}
	const activity = typeof message.timestamp === 'number' ? message.timestamp : timestampMs(entry.timestamp); // `new Date(text).getTime()`, the short way for Pi's own form
	if (activity !== undefined) {
		summary.lastActivity = Math.max(summary.lastActivity ?? 0, activity);
	}
	if (summary.firstUserMessage === undefined && message.role === 'user') {
		const text = messageText(message.content);
		if (text !== '') {
			summary.firstUserMessage = cutText(text, FIRST_MESSAGE_MAX_CHARS);
		}
	}
}

/** Pi's `extractTextContent`: the string itself, or the text blocks joined with a space. */
export function messageText(content: unknown): string {
	if (typeof content === 'string') {
		return content;
	}
	if (!Array.isArray(content)) {
		return '';
	}
	return content
		.filter((block): block is Record<string, unknown> => isPlainObject(block) && block.type === 'text')
		.map((block) => (typeof block.text === 'string' ? block.text : ''))
		.join(' ');
}

/** `text` cut to at most `max` UTF-16 units, never between the two halves of a surrogate pair. */
export function cutText(text: string, max: number): string {
	if (text.length <= max) {
		return text;
	}
	// Do not split a surrogate pair.
	const end = isHighSurrogate(text.charCodeAt(max - 1)) ? max - 1 : max;
	return text.slice(0, end);
}

function isHighSurrogate(code: number): boolean {
	return code >= 0xd800 && code <= 0xdbff;
}
