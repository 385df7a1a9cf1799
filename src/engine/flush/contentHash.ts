/**
 * pi-condense's content-hash dedup key: SHA-1 of `toolName + "\0" + normalize(resultText)`, where
 * normalize turns CRLF into LF, strips trailing whitespace from every line and trims the whole.
 * Internal whitespace and case are kept, so only genuinely identical outputs collide. The SHA-1
 * itself comes through a port (`ContentHasher`): the node layer implements it with node:crypto.
 * Pure.
 */
import type { ToolCallRecord } from '../condense/types';

/** Lowercase hex SHA-1 of the UTF-8 bytes of `text`. */
export type ContentHasher = (text: string) => string;

export function normalizeForHash(text: string): string {
	// `trimEnd` strips what pi-condense's `/\s+$/` strips (the same whitespace set), in linear time:
	// that regex is quadratic on a tool output line of many spaces that does not end in one.
	return text.replace(/\r\n/g, '\n').split('\n').map((line) => line.trimEnd()).join('\n').trim();
}

export function toolResultHash(hash: ContentHasher, toolName: string, resultText: string): string {
	return hash(`${toolName}\0${normalizeForHash(resultText)}`);
}

/** A record's key: its stored `contentHash` (spilled records keep no text), else the hash of its text. */
export function recordHash(hash: ContentHasher, record: ToolCallRecord): string {
	return record.contentHash ?? toolResultHash(hash, record.toolName, record.resultText);
}
