/**
 * A guard against JSON nested so deeply that it cannot be used. Pure.
 *
 * V8's `JSON.parse` reads any depth, but `JSON.stringify` and structured cloning recurse and throw
 * "Maximum call stack size exceeded" at a few thousand levels (measured on Node 20: about 4,000 for
 * `structuredClone`, 6,000 for `JSON.stringify`, fewer deep inside a call stack). Everything
 * downstream serializes messages (measuring, previews, the webview, the summarizer prompt), so a
 * line nested deeper than `MAX_JSON_DEPTH` is read for its top-level fields only. Real entries nest
 * a few dozen levels at most.
 */

export const MAX_JSON_DEPTH = 1000;

/**
 * True when `value` has containers nested more than `limit` deep. `textLength` is the length of the
 * JSON text it was parsed from: each level takes two brackets, so shorter texts are not walked.
 */
export function nestedDeeperThan(value: unknown, textLength: number, limit = MAX_JSON_DEPTH): boolean {
	if (textLength < 2 * (limit + 1) || typeof value !== 'object' || value === null) {
		return false;
	}
	// Iterative on purpose: a recursive walk would overflow on the very values it looks for.
	const pending: unknown[] = [value];
	const depths: number[] = [1];
	while (pending.length > 0) {
		const current = pending.pop() as object;
		const depth = depths.pop() as number;
		if (depth > limit) {
			return true;
		}
		for (const child of Array.isArray(current) ? current : Object.values(current)) {
			if (typeof child === 'object' && child !== null) {
				pending.push(child);
				depths.push(depth + 1);
			}
		}
	}
	return false;
}

/** The top-level fields of an object whose values are not objects or arrays (what is still usable). */
export function topLevelScalars(value: unknown): unknown {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) {
		return Array.isArray(value) ? [] : value;
	}
	const scalars: Record<string, unknown> = {};
	for (const [key, field] of Object.entries(value)) {
		if (typeof field !== 'object' || field === null) {
			scalars[key] = field;
		}
	}
	return scalars;
}
