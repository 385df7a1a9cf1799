/**
 * Small helpers for Node's `fs` errors (`code` such as ENOENT, EACCES, ELOCKED).
 */

export function errorCode(error: unknown): string | undefined {
	return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
}
