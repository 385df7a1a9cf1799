/**
 * Splits a socket's bytes into lines on `\n` only (a JSON string may hold U+2028, which a line
 * reader for text would also split on), decoding UTF-8 across chunk boundaries, and stops at the
 * first line longer than its limit: the caller then closes the connection.
 */
import { StringDecoder } from 'node:string_decoder';

export class LineReader {
	private readonly decoder = new StringDecoder('utf8');
	private pending: string[] = [];
	private pendingChars = 0;
	private overflowed = false;

	constructor(
		private maxChars: number,
		private readonly onLine: (line: string) => void,
		private readonly onOverflow: () => void,
	) {}

	/** A new limit for the lines to come (after the short hello, calls may be longer). */
	setLimit(maxChars: number): void {
		this.maxChars = maxChars;
	}

	push(chunk: Buffer): void {
		if (this.overflowed) {
			return;
		}
		const text = this.decoder.write(chunk);
		let start = 0;
		for (let at = text.indexOf('\n'); at >= 0 && !this.overflowed; at = text.indexOf('\n', start)) {
			const line = this.take(text.slice(start, at));
			start = at + 1;
			if (line !== undefined && line.length > 0) {
				this.onLine(line);
			}
		}
		if (!this.overflowed && start < text.length) {
			this.keep(text.slice(start));
		}
	}

	private take(end: string): string | undefined {
		this.keep(end);
		if (this.overflowed) {
			return undefined;
		}
		const line = this.pending.join('');
		this.pending = [];
		this.pendingChars = 0;
		return line;
	}

	private keep(text: string): void {
		this.pending.push(text);
		this.pendingChars += text.length;
		if (this.pendingChars > this.maxChars) {
			this.overflowed = true;
			this.pending = [];
			this.onOverflow();
		}
	}
}
