/**
 * `JSON.stringify(value)` written out in pieces, yielding between them: the outer `depth` levels of
 * arrays and objects are walked here, anything deeper is one `JSON.stringify` (or `canonicalJson`
 * with `sortKeys`). Joined, the pieces are exactly what `JSON.stringify` (or `canonicalJson`)
 * returns for the whole value, so a payload of megabytes is serialized a message at a time and the
 * thread is never held for the whole of it. Pure.
 */
import { canonicalJson } from './canonicalJson';
import type { Steps } from '../steps';

export interface JsonPiecesOptions {
	/** Levels walked piece by piece (payload → messages → message: 2). */
	readonly depth: number;
	/** Keys sorted, as `canonicalJson` writes them. */
	readonly sortKeys?: boolean;
}

const omitted = (value: unknown): boolean => value === undefined || typeof value === 'function' || typeof value === 'symbol';

export function* jsonPiecesSteps(value: unknown, emit: (piece: string) => void, options: JsonPiecesOptions): Steps<void> {
	const whole = (item: unknown): string => (options.sortKeys ? canonicalJson(item) : JSON.stringify(item) ?? 'null');
	if (options.depth <= 0 || value === null || typeof value !== 'object' || typeof (value as { toJSON?: unknown }).toJSON === 'function') {
		emit(whole(value));
		yield;
		return;
	}
	const inner: JsonPiecesOptions = { ...options, depth: options.depth - 1 };
	if (Array.isArray(value)) {
		emit('[');
		for (let i = 0; i < value.length; i++) {
			if (i > 0) {
				emit(',');
			}
			const item: unknown = value[i];
			yield* jsonPiecesSteps(omitted(item) ? null : item, emit, inner);
		}
		emit(']');
		return;
	}
	const record = value as Record<string, unknown>;
	const keys = options.sortKeys ? Object.keys(record).sort() : Object.keys(record);
	emit('{');
	let first = true;
	for (const key of keys) {
		const item = record[key];
		if (omitted(item)) {
			continue;
		}
		emit(`${first ? '' : ','}${JSON.stringify(key)}:`);
		first = false;
		yield* jsonPiecesSteps(item, emit, inner);
	}
	emit('}');
}
