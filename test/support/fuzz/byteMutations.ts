/**
 * Byte-level mutations for the session fuzzer, run last on the encoded file: truncation anywhere,
 * bit flips, byte-order marks, invalid UTF-8 sequences and NUL bytes.
 */
import type { Random } from '../random';

export type ByteMutation = (bytes: Buffer, random: Random) => { bytes: Buffer; name: string };

function insertAt(bytes: Buffer, at: number, inserted: readonly number[]): Buffer {
	return Buffer.concat([bytes.subarray(0, at), Buffer.from(inserted), bytes.subarray(at)]);
}

const truncate: ByteMutation = (bytes, random) => {
	const at = random.int(0, bytes.length);
	return { bytes: bytes.subarray(0, at), name: `truncate(${at}/${bytes.length})` };
};

const flipBytes: ByteMutation = (bytes, random) => {
	const copy = Buffer.from(bytes);
	const count = random.int(1, 8);
	const at: number[] = [];
	for (let i = 0; i < count && copy.length > 0; i++) {
		const position = random.int(0, copy.length - 1);
		copy[position] = (copy[position] as number) ^ (1 << random.int(0, 7));
		at.push(position);
	}
	return { bytes: copy, name: `flipBytes(${at.join(',')})` };
};

const bom: ByteMutation = (bytes, random) => {
	const kind = random.int(0, 2);
	// At the start of the file, at the start of a random line, or anywhere.
	const newline = bytes.indexOf(0x0a, random.int(0, bytes.length));
	const at = kind === 0 ? 0 : kind === 1 ? newline + 1 : random.int(0, bytes.length);
	return { bytes: insertAt(bytes, at, [0xef, 0xbb, 0xbf]), name: `bom(${at})` };
};

const INVALID_UTF8: readonly (readonly number[])[] = [[0xff], [0xc3], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0x80], [0xc0, 0xaf], [0xf4, 0x90, 0x80, 0x80]];

const invalidUtf8: ByteMutation = (bytes, random) => {
	let result = bytes;
	const count = random.int(1, 4);
	const at: number[] = [];
	for (let i = 0; i < count; i++) {
		const position = random.int(0, result.length);
		result = insertAt(result, position, random.pick(INVALID_UTF8));
		at.push(position);
	}
	return { bytes: result, name: `invalidUtf8(${at.join(',')})` };
};

const nulBytes: ByteMutation = (bytes, random) => {
	const at = random.int(0, bytes.length);
	return { bytes: insertAt(bytes, at, [0, 0, 0]), name: `nul(${at})` };
};

export const BYTE_MUTATIONS: readonly (readonly [number, ByteMutation])[] = [
	[5, truncate], [4, flipBytes], [2, bom], [3, invalidUtf8], [1, nulBytes],
];
