import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { jsonLength } from '../../../../src/engine/condense/measure/jsonLength';
import { piCondenseSessionsDir, realSessionFiles } from '../../../support/paths';
import { Random } from '../../../support/random';

const stringified = (value: unknown): number => (JSON.stringify(value) as string | undefined)?.length ?? 0;

function sessionFiles(): string[] {
	const folders = readdirSync(piCondenseSessionsDir).map((name) => join(piCondenseSessionsDir, name, 'session.jsonl'));
	return [...realSessionFiles(), ...folders.filter((path) => { try { return readFileSync(path).length > 0; } catch { return false; } })];
}

/** Characters that take every path of the escaping: plain, short escapes, \u00XX, pairs and lone surrogates. */
const ALPHABET = ['a', 'Z', ' ', '"', '\\', '/', '\b', '\t', '\n', '\f', '\r', '\u0000', '\u0001', '\u001f', '\u007f', '\u2028', 'é', '€', '😀', '\ud83d', '\ude00', '\udbff', '\udc00'];

function randomString(random: Random): string {
	return Array.from({ length: random.int(0, 12) }, () => random.pick(ALPHABET)).join('');
}

const NUMBERS = [0, -0, 1, -1, 7, 10, 99, 100, 1e15, 2 ** 53 - 1, -(2 ** 53 - 1), 2 ** 53, 1e21, 1e-7, 0.1, -3.25, 1.5e300, Number.MAX_VALUE, Number.MIN_VALUE, NaN, Infinity, -Infinity, 1777000000000];

function randomValue(random: Random, depth: number): unknown {
	const kind = random.int(0, depth > 3 ? 5 : 8);
	switch (kind) {
		case 0: return randomString(random);
		case 1: return random.pick(NUMBERS);
		case 2: return random.chance(0.5);
		case 3: return null;
		case 4: return random.pick([undefined, () => 1, Symbol('s')]);
		case 5: return new Date(random.int(0, 2e12));
		case 6: {
			const array: unknown[] = Array.from({ length: random.int(0, 5) }, () => randomValue(random, depth + 1));
			if (random.chance(0.2)) {
				array[array.length + 2] = 1; // holes
			}
			return array;
		}
		default: {
			const object: Record<string, unknown> = {};
			for (let i = random.int(0, 5); i > 0; i--) {
				object[random.chance(0.2) ? randomString(random) : `k${i}`] = randomValue(random, depth + 1);
			}
			if (random.chance(0.1)) {
				object['toJSON'] = () => ({ replaced: true });
			}
			return object;
		}
	}
}

describe('jsonLength: JSON.stringify(value).length without the string', () => {
	it('equals it for every line and every message block of every real session', () => {
		let checked = 0;
		for (const path of sessionFiles()) {
			for (const line of readFileSync(path, 'utf8').split('\n').filter(Boolean)) {
				let value: unknown;
				try {
					value = JSON.parse(line);
				} catch {
					continue; // damaged lines are part of some fixtures
				}
				assert.equal(jsonLength(value), stringified(value), `${path}: ${line.slice(0, 80)}`);
				const message = (value as { message?: { content?: unknown } }).message;
				for (const block of Array.isArray(message?.content) ? message.content as unknown[] : []) {
					assert.equal(jsonLength(block), stringified(block));
				}
				checked++;
			}
		}
		assert.ok(checked > 1000, `${checked} lines`);
	});

	it('equals it for random values: escapes, surrogates, numbers, omitted members, holes, toJSON', () => {
		const random = new Random(20261202);
		for (let i = 0; i < 20_000; i++) {
			const value = randomValue(random, 0);
			assert.equal(jsonLength(value), stringified(value), `seed ${random.seed}, value ${i}: ${String(JSON.stringify(value))}`);
		}
	});

	it('equals it for each edge case on its own', () => {
		const cases: unknown[] = [
			'', '"', '\\', '\u0000\u001f', '\ud83d\ude00', '\ud83d', '\ude00\ud83d', 'a\ud800', '\udfff',
			...NUMBERS, true, false, null, [], {}, [undefined], { a: undefined }, { a: undefined, b: 1 }, [[], {}],
			Object.create(null) as unknown, Object.assign(Object.create({ inherited: 1 }) as object, { own: 2 }), new Map([[1, 2]]),
			{ nested: { toJSON: () => 'x' } }, Object.assign([1, 2], { extra: 3 }),
		];
		for (const value of cases) {
			assert.equal(jsonLength(value), stringified(value), String(JSON.stringify(value)));
		}
		assert.equal(jsonLength(undefined), 0);
	});
});
