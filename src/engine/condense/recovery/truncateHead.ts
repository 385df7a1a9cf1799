/**
 * Head truncation with Pi's rule (`truncateHead` in pi-coding-agent's tools/truncate.js): keep
 * whole lines from the top while both limits hold (2000 lines, 50 KiB of UTF-8 by default, a line
 * costing its bytes plus one for its newline after the first); a first line over the byte limit
 * yields nothing. Pure.
 *
 * @example
 * truncateHead('a\nb\nc', 2, 1024) // { content: 'a\nb', truncated: true, totalLines: 3, outputLines: 2 }
 */
import { utf8ByteLength } from './utf8';

export const DEFAULT_MAX_LINES = 2000;
export const DEFAULT_MAX_BYTES = 50 * 1024;

export interface HeadTruncation {
	readonly content: string;
	readonly truncated: boolean;
	readonly totalLines: number;
	readonly outputLines: number;
}

export function truncateHead(content: string, maxLines = DEFAULT_MAX_LINES, maxBytes = DEFAULT_MAX_BYTES): HeadTruncation {
	const lines = content.split('\n');
	const totalLines = lines.length;
	if (totalLines <= maxLines && utf8ByteLength(content) <= maxBytes) {
		return { content, truncated: false, totalLines, outputLines: totalLines };
	}
	const kept: string[] = [];
	let bytes = 0;
	for (let i = 0; i < lines.length && i < maxLines; i++) {
		const lineBytes = utf8ByteLength(lines[i] ?? '') + (i > 0 ? 1 : 0);
		if (bytes + lineBytes > maxBytes) {
			break;
		}
		kept.push(lines[i] ?? '');
		bytes += lineBytes;
	}
	return { content: kept.join('\n'), truncated: true, totalLines, outputLines: kept.length };
}
