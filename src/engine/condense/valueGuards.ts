/**
 * Narrowing helpers for JSON read from session entries. Pure.
 */

export type JsonObject = Readonly<Record<string, unknown>>;

export function isFiniteNumber(value: unknown): value is number {
	return typeof value === 'number' && Number.isFinite(value);
}

export function isStringArray(value: unknown): value is readonly string[] {
	return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/** The value when it is a finite number, else the fallback. */
export function numberOr(value: unknown, fallback: number): number {
	return isFiniteNumber(value) ? value : fallback;
}
