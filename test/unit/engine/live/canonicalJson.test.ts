/**
 * canonicalJson and jsonPiecesSteps against JSON.stringify itself: the same text for the same
 * content, whatever the key order, on random values and on the reference sessions' real messages.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalJson } from '../../../../src/engine/live/canonicalJson';
import { jsonPiecesSteps } from '../../../../src/engine/live/jsonPieces';
import { runSteps } from '../../../../src/engine/steps';
import { Random } from '../../../support/random';
import { REFERENCE_DIR } from '../condense/piReference';

/** JSON.stringify with every object's keys sorted (what canonicalJson must equal). */
function sortedStringify(value: unknown): string {
	return JSON.stringify(value, (_key, item: unknown) => (item !== null && typeof item === 'object' && !Array.isArray(item)
		? Object.fromEntries(Object.keys(item).sort().map((key) => [key, (item as Record<string, unknown>)[key]]))
		: item));
}

function randomValue(random: Random, depth: number): unknown {
	const kind = random.int(0, depth > 3 ? 4 : 7);
	switch (kind) {
		case 0: return null;
		case 1: return random.chance(0.5);
		case 2: return random.pick([0, -1.5, 1e21, 3.14159, Number.NaN, Infinity, 42]);
		case 3: return random.pick(['', 'a', 'quote " and \\ and \n', 'line\u2028sep', '😀 emoji', '\u0000']);
		case 4: return undefined;
		case 5: return Array.from({ length: random.int(0, 4) }, () => randomValue(random, depth + 1));
		default: {
			// No integer-like keys here: an object orders those first whatever the reference sorts (see below).
			const keys = ['b', 'a', 'z', 'k10', 'k2', 'ä', 'role', 'content'];
			const object: Record<string, unknown> = {};
			for (let i = random.int(0, 5); i > 0; i--) {
				object[random.pick(keys)] = randomValue(random, depth + 1);
			}
			return object;
		}
	}
}

function pieces(value: unknown, depth: number, sortKeys: boolean): string {
	const out: string[] = [];
	runSteps(jsonPiecesSteps(value, (piece) => out.push(piece), { depth, sortKeys }));
	return out.join('');
}

describe('canonicalJson', () => {
	it('equals JSON.stringify with sorted keys on 2,000 random values', () => {
		const random = new Random(31);
		for (let i = 0; i < 2000; i++) {
			const value = randomValue(random, 0);
			if (value === undefined) {
				continue;
			}
			assert.equal(canonicalJson(value), sortedStringify(value), JSON.stringify(value));
		}
	});

	it('is the same whatever order the keys were written in', () => {
		const a = { role: 'user', content: [{ type: 'text', text: 'hi' }], timestamp: 1 };
		const b = { timestamp: 1, content: [{ text: 'hi', type: 'text' }], role: 'user' };
		assert.equal(canonicalJson(a), canonicalJson(b));
		assert.notEqual(JSON.stringify(a), JSON.stringify(b));
		assert.notEqual(canonicalJson(a), canonicalJson({ ...a, timestamp: 2 }));
	});

	it('sorts integer-like keys as strings too, whatever order they were added in', () => {
		assert.equal(canonicalJson({ 2: 'b', 10: 'a', x: 1 }), '{"10":"a","2":"b","x":1}');
		assert.equal(canonicalJson(Object.fromEntries([['x', 1], ['10', 'a'], ['2', 'b']])), canonicalJson({ 2: 'b', x: 1, 10: 'a' }));
	});

	it('leaves out undefined fields as JSON does (a file never holds them, Pi\'s memory may)', () => {
		assert.equal(canonicalJson({ a: 1, details: undefined }), canonicalJson({ a: 1 }));
		assert.equal(canonicalJson([undefined, () => 1]), '[null,null]');
		assert.equal(canonicalJson({ at: new Date(0) }), '{"at":"1970-01-01T00:00:00.000Z"}');
	});
});

describe('jsonPiecesSteps', () => {
	it('joined, the pieces are JSON.stringify (and canonicalJson) at every depth', () => {
		const random = new Random(7);
		for (let i = 0; i < 1000; i++) {
			const value = randomValue(random, 0) ?? null;
			for (const depth of [0, 1, 2, 3]) {
				assert.equal(pieces(value, depth, false), JSON.stringify(value), `depth ${depth}: ${JSON.stringify(value)}`);
				assert.equal(pieces(value, depth, true), canonicalJson(value));
			}
		}
	});

	it('writes a real context a message at a time', () => {
		const messages = JSON.parse(readFileSync(join(REFERENCE_DIR, 'basic', 'expected-context.json'), 'utf8')) as unknown[];
		const payload = { model: 'm', messages, stream: true };
		const out: string[] = [];
		let yields = 0;
		const steps = jsonPiecesSteps(payload, (piece) => out.push(piece), { depth: 3 });
		while (!steps.next().done) {
			yields++;
		}
		assert.equal(out.join(''), JSON.stringify(payload));
		assert.ok(yields >= messages.length, `${yields} yields for ${messages.length} messages`);
	});
});
