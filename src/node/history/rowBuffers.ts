/**
 * The growable buffers a file's rows are gathered in (`RowGatherer`): numbers in a `Float64Array`,
 * texts as UTF-8 bytes. Each batch is copied out at its exact size (it moves to the writer's
 * thread); the buffers themselves are kept from one file to the next, a few at a time (files read
 * at once each take their own): a buffer of a megabyte or more allocated and freed per file raises
 * glibc's threshold for such allocations and keeps its arena resident (see `ReadBuffers`). One grown
 * past KEPT_BUFFER_BYTES (a file with huge texts) is not kept.
 */

const KEPT_BUFFER_BYTES = 4 * 1024 * 1024;
/** Buffers kept of each kind: a gatherer uses three of numbers and one of texts. */
const KEPT_BUFFERS = 4;
const keptNumbers: Float64Array[] = [];
const keptTexts: Uint8Array[] = [];

function keep<T extends Float64Array | Uint8Array>(kept: T[], buffer: T): void {
	if (buffer.byteLength > 0 && buffer.byteLength <= KEPT_BUFFER_BYTES && kept.length < KEPT_BUFFERS) {
		kept.push(buffer);
	}
}

/** Numbers appended to a buffer reused through the file and after (no object per fraction or time). */
export class Numbers {
	private values = keptNumbers.pop() ?? new Float64Array(4096);
	private length = 0;

	push(value: number): void {
		if (this.length === this.values.length) {
			const bigger = new Float64Array(Math.max(4096, 2 * this.values.length));
			bigger.set(this.values);
			this.values = bigger;
		}
		this.values[this.length++] = value;
	}

	/** The numbers appended since the last take, in a buffer of their own. */
	take(): Float64Array {
		const taken = this.values.slice(0, this.length);
		this.length = 0;
		return taken;
	}

	/** Gives the buffer back for the next file's rows (what was not taken is dropped). */
	release(): void {
		keep(keptNumbers, this.values);
		this.values = new Float64Array(0);
		this.length = 0;
	}
}

const encoder = new TextEncoder();

/**
 * Texts as UTF-8, one after another, encoded as they come: a text's string is dropped at once
 * (young) instead of living until the batch is taken (thousands of strings a collection would
 * copy and promote).
 */
export class TextBytes {
	private buffer = keptTexts.pop() ?? new Uint8Array(64 * 1024);
	private length = 0;

	/** Appends `text` and returns where its bytes end. */
	append(text: string): number {
		// A UTF-16 unit takes at most 3 bytes of UTF-8 (a surrogate pair's two take 4).
		const room = this.length + 3 * text.length;
		if (room > this.buffer.length) {
			const bigger = new Uint8Array(Math.max(room, 2 * this.buffer.length));
			bigger.set(this.buffer.subarray(0, this.length));
			this.buffer = bigger;
		}
		this.length += encoder.encodeInto(text, this.buffer.subarray(this.length)).written;
		return this.length;
	}

	/** The bytes appended since the last take, in a buffer of their own. */
	take(): Uint8Array {
		const bytes = this.buffer.slice(0, this.length);
		this.length = 0;
		return bytes;
	}

	/** Gives the buffer back for the next file's texts (what was not taken is dropped). */
	release(): void {
		keep(keptTexts, this.buffer);
		this.buffer = new Uint8Array(0);
		this.length = 0;
	}
}
