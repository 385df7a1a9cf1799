import { isPlainObject } from '../../base/plainObject';
/**
 * Typed, validating reads from a raw `contextPrune` object. Pure.
 *
 * Each read either returns the user's value or falls back to the default and records a
 * `ConfigProblem`. The reader remembers which keys it consumed, so the caller can keep the keys it
 * does not know (later pi-condense versions add keys; they must round-trip untouched).
 */

/** One invalid value in `contextPrune`, with what was used instead. */
export interface ConfigProblem {
	/** Dotted path inside `contextPrune`, e.g. `chainCompression.rollingWindow`. */
	readonly key: string;
	/** The value found, as shortened JSON. */
	readonly value: string;
	/** Why it was rejected, e.g. `expected a whole number ≥ 0`. */
	readonly reason: string;
	/** The value used instead, as JSON. */
	readonly used: string;
}

export type RawObject = Readonly<Record<string, unknown>>;

const SHORT_VALUE_LENGTH = 60;

/** Why a key missing from a nested block is reported although its default fills it here. */
export const SHALLOW_MERGE_REASON = 'pi-condense does not fill in the keys missing from a block (it merges settings.json shallowly), so Pi runs without this one; add it to the block so Pi and Pi Condense agree';

/** `value` as JSON, cut to a readable length. */
export function shortJson(value: unknown): string {
	const json = value === undefined ? 'undefined' : JSON.stringify(value) ?? typeof value;
	return json.length > SHORT_VALUE_LENGTH ? `${json.slice(0, SHORT_VALUE_LENGTH - 1)}…` : json;
}

type KeysWhere<T, V> = { [K in keyof T]: T[K] extends V ? K : never }[keyof T] & string;

export class ConfigReader<T extends object> {
	private readonly consumed = new Set<string>();

	constructor(
		private readonly raw: RawObject,
		private readonly defaults: T,
		private readonly prefix: string,
		private readonly problems: ConfigProblem[],
	) {}

	boolean(key: KeysWhere<T, boolean>): boolean {
		return this.read(key, (value) => (typeof value === 'boolean' ? { ok: value } : 'expected true or false'));
	}

	/** A whole number at least `min` (counts, sizes, timeouts). */
	count(key: KeysWhere<T, number>, min: number): number {
		return this.read(key, (value) => (Number.isInteger(value) && (value as number) >= min
			? { ok: value as number }
			: `expected a whole number ≥ ${min}`));
	}

	/** pi-condense's rule for the keys it added later: a finite number ≥ 0, floored (`2.7` → 2). */
	floored(key: KeysWhere<T, number | undefined>): number {
		return this.read(key, (value) => (typeof value === 'number' && Number.isFinite(value) && value >= 0
			? { ok: Math.floor(value) }
			: 'expected a number ≥ 0'));
	}

	/** Marks a key as not read (it is not carried into the result); true when the raw object has it. */
	ignore(key: string): boolean {
		this.consumed.add(key);
		return Object.hasOwn(this.raw, key);
	}

	choice<V extends string>(key: KeysWhere<T, V>, allowed: readonly V[]): V {
		return this.read(key, (value) => (allowed.includes(value as V)
			? { ok: value as V }
			: `expected one of ${allowed.map((v) => `"${v}"`).join(', ')}`));
	}

	/**
	 * A fraction in (0, 1], or null (off). Like pi-condense, a number out of range turns the feature
	 * off instead of falling back to the default; 0 is the documented "off" value and is not reported.
	 */
	fraction(key: KeysWhere<T, number | null>): number | null {
		const value = this.take(key);
		if (value === undefined) {
			return this.fallback(key);
		}
		if (value === null) {
			return null;
		}
		if (typeof value !== 'number' || !Number.isFinite(value)) {
			return this.reject(key, value, 'expected a number in (0, 1] or null', this.fallback(key));
		}
		if (value > 0 && value <= 1) {
			return value;
		}
		return value === 0 ? null : this.reject(key, value, 'expected a number in (0, 1] or null', null);
	}

	/** `default` or `provider/model-id` (the id may itself contain `/`). */
	model(key: KeysWhere<T, string>): string {
		return this.read(key, (value) => (typeof value === 'string' && isModelSpec(value)
			? { ok: value }
			: 'expected "default" or "provider/model-id"'));
	}

	/** An array of strings; items that are not strings are dropped and reported. */
	strings(key: KeysWhere<T, readonly string[]>): readonly string[] {
		const value = this.take(key);
		if (value === undefined) {
			return this.fallback(key);
		}
		if (!Array.isArray(value)) {
			return this.reject(key, value, 'expected a list of strings', this.fallback(key));
		}
		const kept = value.filter((item): item is string => typeof item === 'string');
		if (kept.length !== value.length) {
			this.problems.push({ key: this.path(key), value: shortJson(value), reason: 'only strings are allowed; other items were dropped', used: shortJson(kept) });
		}
		return kept;
	}

	/** A nested block, merged key by key over its own defaults. */
	block<K extends KeysWhere<T, object | undefined>, R>(key: K, build: (reader: ConfigReader<NonNullable<T[K]> & object>) => R): R {
		const value = this.take(key);
		const defaults = this.defaults[key] as NonNullable<T[K]> & object;
		let source: RawObject = {};
		if (isPlainObject(value)) {
			source = value;
		} else if (value !== undefined) {
			this.problems.push({ key: this.path(key), value: shortJson(value), reason: 'expected an object', used: shortJson(defaults) });
		}
		const nested = new ConfigReader(source, defaults, `${this.path(key)}.`, this.problems);
		const built = nested.withUnknownKeys(build(nested));
		if (isPlainObject(value)) {
			this.reportShallowMerge(key, value, built);
		}
		return built;
	}

	/**
	 * pi-condense merges the file over its defaults shallowly: a block given without some of its keys
	 * has them missing in Pi, not defaulted as here. What Pi then does depends on how its code reads
	 * an absent value, so it cannot be followed: each missing key is reported, with the default used.
	 */
	private reportShallowMerge(key: string, given: RawObject, built: unknown): void {
		for (const [inner, used] of Object.entries(built as Record<string, unknown>)) {
			if (!Object.hasOwn(given, inner)) {
				this.problems.push({ key: `${this.path(key)}.${inner}`, value: 'missing', reason: SHALLOW_MERGE_REASON, used: shortJson(used) });
			}
		}
	}

	/** `known` plus every raw key this reader did not consume, so unknown keys round-trip. */
	withUnknownKeys<R>(known: R): R {
		const extra: Record<string, unknown> = {};
		for (const [key, value] of Object.entries(this.raw)) {
			if (!this.consumed.has(key)) {
				extra[key] = value;
			}
		}
		return { ...extra, ...known };
	}

	private read<V>(key: keyof T & string, check: (value: unknown) => { ok: V } | string): V {
		const value = this.take(key);
		if (value === undefined) {
			return this.fallback(key);
		}
		const result = check(value);
		return typeof result === 'string' ? this.reject(key, value, result, this.fallback(key)) : result.ok;
	}

	private take(key: string): unknown {
		this.consumed.add(key);
		return Object.hasOwn(this.raw, key) ? this.raw[key] : undefined;
	}

	private fallback<V>(key: keyof T): V {
		return this.defaults[key] as V;
	}

	private reject<V>(key: string, value: unknown, reason: string, used: V): V {
		this.problems.push({ key: this.path(key), value: shortJson(value), reason, used: shortJson(used) });
		return used;
	}

	private path(key: string): string {
		return `${this.prefix}${key}`;
	}
}

function isModelSpec(value: string): boolean {
	if (value === 'default') {
		return true;
	}
	const slash = value.indexOf('/');
	return slash > 0 && slash < value.length - 1 && !/\s/.test(value);
}
