/**
 * The cost tables' binary form (`costs_digests`, `costs_copies`): a session's digest, its request
 * fingerprints and the copies among sessions, as bytes. Exact: every figure a digest keeps (dollar
 * partials, times, per-token prices) is a float64 as it was; counts, lines and key ids are unsigned
 * varints; each line list is kept as the differences from the line before (lines ascend: small). Against
 * the JSON it replaces: 60% smaller and read without `JSON.parse` (`docs/performance.md`).
 * A value that does not read (damaged by hand, or cut short) reads as undefined. The varints, floats,
 * texts and line steps themselves are byteCodec.ts.
 */
import type { DigestRebuild, SessionCopies, SessionDigest, UsageBucket } from '../../engine/costs';
import { ByteReader, ByteWriter, readBlob, readLineStep, writeLineStep } from './byteCodec';

/** The first byte of each form: a blob of another form or version reads as undefined. */
const DIGEST_FORM = 1;
const FINGERPRINTS_FORM = 2;
const COPIES_FORM = 3;

function writeBuckets(writer: ByteWriter, buckets: readonly UsageBucket[]): void {
	writer.uint(buckets.length);
	for (const bucket of buckets) {
		for (const figure of [bucket.quarter, bucket.requests, bucket.input, bucket.output, bucket.cacheRead, bucket.cacheWrite]) {
			writer.float(figure);
		}
		for (const partials of bucket.costs) {
			writer.uint(partials.length);
			for (const partial of partials) {
				writer.float(partial);
			}
		}
	}
}

function readBuckets(reader: ByteReader): UsageBucket[] {
	const buckets: UsageBucket[] = new Array<UsageBucket>(reader.count(53));
	for (let i = 0; i < buckets.length; i++) {
		const quarter = reader.float();
		const requests = reader.float();
		const input = reader.float();
		const output = reader.float();
		const cacheRead = reader.float();
		const cacheWrite = reader.float();
		const costs = [readFloats(reader), readFloats(reader), readFloats(reader), readFloats(reader), readFloats(reader)] as const;
		buckets[i] = { quarter, requests, input, output, cacheRead, cacheWrite, costs };
	}
	return buckets;
}

function readFloats(reader: ByteReader): number[] {
	const values = new Array<number>(reader.count(8));
	for (let i = 0; i < values.length; i++) {
		values[i] = reader.float();
	}
	return values;
}

/** Texts named once, then by their number. */
function writeTexts(writer: ByteWriter, texts: readonly string[]): void {
	writer.uint(texts.length);
	for (const text of texts) {
		writer.text(text);
	}
}

function readTexts(reader: ByteReader): string[] {
	const texts = new Array<string>(reader.count());
	for (let i = 0; i < texts.length; i++) {
		texts[i] = reader.text();
	}
	return texts;
}

/**
 * A digest: its buckets; its rebuilds, each with what it shares with others (the price it paid, its
 * read price, its model) named once per digest; its unpriced models.
 */
export function digestBlob(digest: SessionDigest): Uint8Array {
	const writer = new ByteWriter();
	writer.uint(DIGEST_FORM);
	writeBuckets(writer, digest.buckets);
	const models: string[] = [];
	const prices: [paid: number, read: number, model: number][] = [];
	const priceIds = new Map<string, number>();
	const priceOf = (rebuild: DigestRebuild): number => {
		let model = models.indexOf(rebuild.modelKey);
		if (model < 0) {
			model = models.push(rebuild.modelKey) - 1;
		}
		const price: [number, number, number] = [rebuild.paidPerToken, rebuild.readPerToken ?? Number.NaN, model];
		const key = price.join(' ');
		let id = priceIds.get(key);
		if (id === undefined) {
			id = prices.push(price) - 1;
			priceIds.set(key, id);
		}
		return id;
	};
	const ids = digest.rebuilds.map(priceOf);
	writeTexts(writer, models);
	writer.uint(prices.length);
	for (const [paid, read, model] of prices) {
		writer.float(paid);
		writer.float(read);
		writer.uint(model);
	}
	writer.uint(digest.rebuilds.length);
	let line = 0;
	digest.rebuilds.forEach((rebuild, i) => {
		writeLineStep(writer, rebuild.line, line);
		line = rebuild.line;
		writer.float(rebuild.at);
		writer.float(rebuild.missedTokens);
		writer.uint(ids[i] as number);
	});
	writeTexts(writer, digest.unpriced);
	return writer.done();
}

export function digestOfBlob(blob: unknown): SessionDigest | undefined {
	return readBlob(blob, DIGEST_FORM, (reader) => {
		const buckets = readBuckets(reader);
		const models = readTexts(reader);
		const prices = new Array<{ paid: number; read: number | undefined; model: string }>(reader.count(17));
		for (let i = 0; i < prices.length; i++) {
			const paid = reader.float();
			const read = reader.float();
			const model = models[reader.uint()];
			if (model === undefined) {
				throw new RangeError('no such model');
			}
			prices[i] = { paid, read: Number.isNaN(read) ? undefined : read, model };
		}
		const rebuilds = new Array<DigestRebuild>(reader.count(18));
		let line = 0;
		for (let i = 0; i < rebuilds.length; i++) {
			line = readLineStep(reader, line);
			const at = reader.float();
			const missedTokens = reader.float();
			const price = prices[reader.uint()];
			if (price === undefined) {
				throw new RangeError('no such price');
			}
			rebuilds[i] = { line, at, missedTokens, paidPerToken: price.paid, readPerToken: price.read, modelKey: price.model };
		}
		return { buckets, rebuilds, unpriced: readTexts(reader) };
	});
}

/** A digest's fingerprints (`[line, hash, …]`): the hashes as they are, the lines by their steps. */
export function fingerprintsBlob(fingerprints: Uint32Array): Uint8Array {
	const writer = new ByteWriter();
	writer.uint(FINGERPRINTS_FORM);
	const pairs = Math.floor(fingerprints.length / 2);
	writer.uint(pairs);
	let line = 0;
	for (let i = 0; i < pairs; i++) {
		writeLineStep(writer, fingerprints[i * 2] as number, line);
		line = fingerprints[i * 2] as number;
		writer.uint32(fingerprints[i * 2 + 1] as number);
	}
	return writer.done();
}

/** Fingerprints as kept; empty when they do not read (then no request of the session is taken for a copy candidate: it is worked out again when the file changes). */
export function fingerprintsOfBlob(blob: unknown): Uint32Array {
	return readBlob(blob, FINGERPRINTS_FORM, (reader) => {
		const fingerprints = new Uint32Array(reader.count(5) * 2);
		let line = 0;
		for (let i = 0; i < fingerprints.length; i += 2) {
			line = readLineStep(reader, line);
			fingerprints[i] = line;
			fingerprints[i + 1] = reader.uint32();
		}
		return fingerprints;
	}) ?? new Uint32Array(0);
}

/** The copies among sessions: per session, its keyed lines, the quarter hours that lost a copy and its buckets for them after. */
export function copiesBlob(copies: readonly SessionCopies[]): Uint8Array {
	const writer = new ByteWriter();
	writer.uint(COPIES_FORM);
	writer.uint(copies.length);
	for (const session of copies) {
		writer.uint(session.keyed.length);
		let line = 0;
		for (const [keyedLine, key] of session.keyed) {
			writeLineStep(writer, keyedLine, line);
			line = keyedLine;
			writer.uint(key);
		}
		writer.uint(session.touched.length);
		for (const quarter of session.touched) {
			writer.float(quarter);
		}
		writeBuckets(writer, session.less);
	}
	return writer.done();
}

export function copiesOfBlob(blob: unknown): SessionCopies[] | undefined {
	return readBlob(blob, COPIES_FORM, (reader) => {
		const copies = new Array<SessionCopies>(reader.count(3));
		for (let i = 0; i < copies.length; i++) {
			const keyed = new Array<[number, number]>(reader.count(2));
			let line = 0;
			for (let k = 0; k < keyed.length; k++) {
				line = readLineStep(reader, line);
				keyed[k] = [line, reader.uint()];
			}
			copies[i] = { keyed, touched: readFloats(reader), less: readBuckets(reader) };
		}
		return copies;
	});
}
