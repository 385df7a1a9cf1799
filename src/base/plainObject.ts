/**
 * The one check that a value read from JSON (a session line, a settings file, a page message) is a
 * plain object: not null, not an array. No Node, no DOM.
 */

export function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}
