/**
 * Fresh entry ids in Pi's format: 8 lowercase hex characters (Pi takes `randomUUID().slice(0, 8)`).
 * Pure: the random source and the "already used" test are passed in.
 */

/** Returns `count` random bytes (the node layer passes `crypto.randomBytes`). */
export type RandomBytes = (count: number) => Uint8Array;

const MAX_TRIES = 100;

/**
 * An 8-hex id for which `isTaken` is false. Pi checks only its in-memory index, so a collision with
 * an id it cannot see is possible for Pi; we check every id the caller knows about (the whole file
 * plus ids generated in the same write). Throws if the random source keeps repeating used ids,
 * which only a broken source does (2^32 ids).
 */
export function newEntryId(isTaken: (id: string) => boolean, randomBytes: RandomBytes): string {
	for (let attempt = 0; attempt < MAX_TRIES; attempt++) {
		const id = toHex(randomBytes(4));
		if (!isTaken(id)) {
			return id;
		}
	}
	throw new Error(`no unused entry id after ${MAX_TRIES} tries: the random source is not random`);
}

function toHex(bytes: Uint8Array): string {
	if (bytes.length < 4) {
		throw new Error(`the random source returned ${bytes.length} bytes instead of 4`);
	}
	let hex = '';
	for (let at = 0; at < 4; at++) {
		hex += (bytes[at] as number).toString(16).padStart(2, '0');
	}
	return hex;
}
