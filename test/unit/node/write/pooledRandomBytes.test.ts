/**
 * The writer's random source for entry ids: bytes drawn a pool at a time, yet every call gets
 * bytes of its own, of the length asked, across refills and past the pool's size.
 */
import assert from 'node:assert/strict';
import { pooledRandomBytes } from '../../../../src/node/write/pooledRandomBytes';

describe('pooledRandomBytes', () => {
	it('gives each call fresh bytes of the length asked, across refills of the pool', () => {
		const random = pooledRandomBytes();
		const seen = new Set<string>();
		for (let i = 0; i < 5000; i++) {
			const bytes = random(4);
			assert.equal(bytes.length, 4);
			seen.add(Buffer.from(bytes).toString('hex'));
		}
		// 5,000 draws of 32 bits: a repeat is possible but rare (p ≈ 0.3 %); a reused slice of the pool would repeat hundreds.
		assert.ok(seen.size >= 4995, `${seen.size} distinct ids of 5000`);
	});

	it('returns copies: a later draw never changes bytes already handed out', () => {
		const random = pooledRandomBytes();
		const first = random(4);
		const kept = Buffer.from(first).toString('hex');
		for (let i = 0; i < 3000; i++) {
			random(4);
		}
		assert.equal(Buffer.from(first).toString('hex'), kept);
	});

	it('serves a request larger than the pool', () => {
		const bytes = pooledRandomBytes()(10_000);
		assert.equal(bytes.length, 10_000);
		assert.ok(new Set(bytes).size > 200, 'not all the same byte');
	});
});
