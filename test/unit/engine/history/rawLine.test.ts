import assert from 'node:assert/strict';
import { exactLine, lineReading, parseLine, type RawLine } from '../../../../src/engine/history/rawLine';
import { Random } from '../../../support/random';

/** The line as the index reads it (each byte one character) and as UTF-8. */
function readings(json: Buffer): { latin1: RawLine; utf8: RawLine } {
	return {
		latin1: { text: json.toString('latin1'), encoding: 'latin1', offset: 0, bytes: json.length },
		utf8: { text: new TextDecoder('utf-8', { ignoreBOM: true }).decode(json), encoding: 'utf8', offset: 0, bytes: json.length },
	};
}

/** Every string of a parsed value, with its path, read back as the UTF-8 reading has it. */
function strings(value: unknown, read: (text: string) => string, path = '$'): [string, string][] {
	if (typeof value === 'string') {
		return [[path, read(value)]];
	}
	if (Array.isArray(value)) {
		return value.flatMap((item, i) => strings(item, read, `${path}[${i}]`));
	}
	if (value !== null && typeof value === 'object') {
		return Object.entries(value).flatMap(([key, item]) => strings(item, read, `${path}.${key}`));
	}
	return [];
}

describe('history index: a line read one byte per character', () => {
	it('parses (or fails) exactly where the UTF-8 reading does, with the same strings once read back', () => {
		const rng = new Random(37);
		const random = (): number => rng.next();
		const pieces = ['é', '✓', '😀', '\\u00e9', '\\ud83d', '\\ud83d\\ude00', '\\n', '\\"', '\\\\', 'a', ' ', '\u2028', '\uFEFF', '\\u0041'];
		const rawBytes = [Buffer.from([0xc3]), Buffer.from([0xa9]), Buffer.from([0xff]), Buffer.from([0xe2, 0x9c]), Buffer.from([0x01])];
		for (let trial = 0; trial < 3000; trial++) {
			const parts: Buffer[] = [Buffer.from('{"type":"message","text":"')];
			const count = Math.floor(random() * 12);
			for (let i = 0; i < count; i++) {
				parts.push(random() < 0.2 ? rawBytes[Math.floor(random() * rawBytes.length)] as Buffer : Buffer.from(pieces[Math.floor(random() * pieces.length)] as string));
			}
			parts.push(Buffer.from(random() < 0.1 ? '"' : '"}'));
			const json = Buffer.concat(parts);
			const { latin1, utf8 } = readings(json);
			const exact = exactLine(latin1);
			const fast = parseLine(exact);
			const slow = parseLine(utf8);
			assert.equal(fast === undefined, slow === undefined, json.toString('hex'));
			if (slow !== undefined) {
				const reading = lineReading(exact); // a line with a byte-range escape is already its UTF-8 reading (exactLine)
				assert.deepEqual(strings(fast, reading.text), strings(slow, (text) => text), json.toString('hex'));
				assert.equal(reading.needsUtf8, false);
			}
		}
	});
});
