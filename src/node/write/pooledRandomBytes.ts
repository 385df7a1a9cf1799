/**
 * Random bytes for entry ids, drawn from the system's generator a pool at a time: a first flush of
 * a large session writes tens of thousands of entries, and one `randomBytes` call per id held the
 * extension host about 350 ms for 13,000 ids. Each call still gets bytes no other call got.
 */
import { randomFillSync } from 'node:crypto';
import type { RandomBytes } from '../../engine/write';

const POOL_BYTES = 4096;

export function pooledRandomBytes(): RandomBytes {
	const pool = new Uint8Array(POOL_BYTES);
	let used = POOL_BYTES;
	return (count) => {
		if (count > POOL_BYTES) {
			return randomFillSync(new Uint8Array(count));
		}
		if (used + count > POOL_BYTES) {
			randomFillSync(pool);
			used = 0;
		}
		used += count;
		return pool.slice(used - count, used);
	};
}
