/**
 * The byte primitives under the cost tables' binary form (digestCodec.ts): a writer and a reader of
 * unsigned varints, little-endian float64s and uint32s and length-prefixed UTF-8 texts, a blob's
 * leading form byte, and a line kept as its zigzag step from the line before. A read past the end,
 * a count larger than the bytes left or a varint past 2^56 throws a RangeError, which `readBlob`
 * turns into undefined: a damaged or cut blob never throws out of here.
 */

export class ByteWriter {
	private bytes = new Uint8Array(256);
	private view = new DataView(this.bytes.buffer);
	private length = 0;

	uint(value: number): void {
		this.room(8);
		let rest = value;
		while (rest >= 0x80) {
			this.bytes[this.length++] = (rest % 0x80) | 0x80;
			rest = Math.floor(rest / 0x80);
		}
		this.bytes[this.length++] = rest;
	}

	float(value: number): void {
		this.room(8);
		this.view.setFloat64(this.length, value, true);
		this.length += 8;
	}

	uint32(value: number): void {
		this.room(4);
		this.view.setUint32(this.length, value, true);
		this.length += 4;
	}

	text(value: string): void {
		const encoded = Buffer.from(value, 'utf8');
		this.uint(encoded.length);
		this.room(encoded.length);
		this.bytes.set(encoded, this.length);
		this.length += encoded.length;
	}

	done(): Uint8Array {
		return this.bytes.slice(0, this.length);
	}

	private room(more: number): void {
		if (this.length + more <= this.bytes.length) {
			return;
		}
		const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.length + more));
		grown.set(this.bytes.subarray(0, this.length));
		this.bytes = grown;
		this.view = new DataView(grown.buffer);
	}
}

export class ByteReader {
	private readonly view: DataView;
	private at = 0;

	constructor(private readonly bytes: Uint8Array) {
		this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	}

	uint(): number {
		let value = 0;
		let scale = 1;
		for (;;) {
			const byte = this.byte();
			value += (byte & 0x7f) * scale;
			if (byte < 0x80) {
				return value;
			}
			scale *= 0x80;
			if (scale > 2 ** 56) {
				throw new RangeError('a varint past 2^56');
			}
		}
	}

	/** A count of items that take at least `each` bytes: more than the bytes left cannot be. */
	count(each = 1): number {
		const count = this.uint();
		if (count * each > this.bytes.length - this.at) {
			throw new RangeError('a count past the end');
		}
		return count;
	}

	float(): number {
		const value = this.view.getFloat64(this.at, true);
		this.at += 8;
		return value;
	}

	uint32(): number {
		const value = this.view.getUint32(this.at, true);
		this.at += 4;
		return value;
	}

	text(): string {
		const length = this.count();
		const value = Buffer.from(this.bytes.buffer, this.bytes.byteOffset + this.at, length).toString('utf8');
		this.at += length;
		return value;
	}

	byte(): number {
		if (this.at >= this.bytes.length) {
			throw new RangeError('past the end');
		}
		return this.bytes[this.at++] as number;
	}

	get ended(): boolean {
		return this.at === this.bytes.length;
	}
}

/** Reads `blob` with `read`, which must take it to its end: undefined when it does not read. */
export function readBlob<T>(blob: unknown, form: number, read: (reader: ByteReader) => T): T | undefined {
	if (!(blob instanceof Uint8Array)) {
		return undefined;
	}
	try {
		const reader = new ByteReader(blob);
		if (reader.byte() !== form) {
			return undefined;
		}
		const value = read(reader);
		return reader.ended ? value : undefined;
	} catch (error) {
		if (error instanceof RangeError) {
			return undefined;
		}
		throw error;
	}
}

/** A line as its difference from the line before, zigzag-coded (a line lower than the one before still reads). */
export function writeLineStep(writer: ByteWriter, line: number, before: number): void {
	const step = line - before;
	writer.uint(step >= 0 ? step * 2 : -step * 2 - 1);
}

export function readLineStep(reader: ByteReader, before: number): number {
	const coded = reader.uint();
	return before + (coded % 2 === 0 ? coded / 2 : -(coded + 1) / 2);
}
