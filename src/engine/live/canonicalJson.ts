/**
 * One spelling of a JSON value whatever order its keys were written in: `JSON.stringify` with the
 * keys of every object sorted. The bridge hashes the messages Pi sends this way and VS Code hashes
 * its prediction the same way, so a message matches when its content does (Pi builds its messages
 * in memory, we parse them from the file: same values, not always the same key order). Pure.
 *
 * @example
 * canonicalJson({ b: 1, a: [true, undefined] }) // '{"a":[true,null],"b":1}'
 */

/** What `JSON.stringify` leaves out of an object (and writes as `null` in an array). */
function isOmitted(value: unknown): boolean {
	return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

export function canonicalJson(value: unknown): string {
	if (value === null || typeof value !== 'object') {
		// Strings, numbers (NaN and infinities become null) and booleans as JSON writes them.
		return typeof value === 'bigint' ? JSON.stringify(value.toString()) : JSON.stringify(value) ?? 'null';
	}
	const withToJson = value as { toJSON?: unknown };
	if (typeof withToJson.toJSON === 'function') {
		return canonicalJson((withToJson.toJSON as () => unknown).call(value));
	}
	if (Array.isArray(value)) {
		return `[${value.map((item: unknown) => (isOmitted(item) ? 'null' : canonicalJson(item))).join(',')}]`;
	}
	const record = value as Record<string, unknown>;
	const parts: string[] = [];
	for (const key of Object.keys(record).sort()) {
		const item = record[key];
		if (!isOmitted(item)) {
			parts.push(`${JSON.stringify(key)}:${canonicalJson(item)}`);
		}
	}
	return `{${parts.join(',')}}`;
}
