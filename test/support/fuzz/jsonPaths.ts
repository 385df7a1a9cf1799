/**
 * Addressing fields inside parsed JSON for the mutators: every path to a value (depth- and
 * width-limited), setting and deleting by path, and a value of a different JSON type.
 */
import type { Random } from '../random';

export type Json = Record<string, unknown>;
export type JsonPath = readonly (string | number)[];

export interface PathValue {
	readonly path: JsonPath;
	readonly value: unknown;
}

const MAX_DEPTH = 7;
const MAX_ITEMS = 12;

/** Every path under `root` (the root itself included as `[]`), arrays sampled to their first items. */
export function allPaths(root: unknown): PathValue[] {
	const out: PathValue[] = [];
	const visit = (value: unknown, path: JsonPath): void => {
		out.push({ path, value });
		if (path.length >= MAX_DEPTH || typeof value !== 'object' || value === null) {
			return;
		}
		if (Array.isArray(value)) {
			value.slice(0, MAX_ITEMS).forEach((item, i) => visit(item, [...path, i]));
			return;
		}
		for (const [key, item] of Object.entries(value)) {
			visit(item, [...path, key]);
		}
	};
	visit(root, []);
	return out;
}

function parentOf(root: unknown, path: JsonPath): Record<string | number, unknown> | undefined {
	let current = root;
	for (const key of path.slice(0, -1)) {
		if (typeof current !== 'object' || current === null) {
			return undefined;
		}
		current = (current as Record<string | number, unknown>)[key];
	}
	return typeof current === 'object' && current !== null ? current as Record<string | number, unknown> : undefined;
}

export function setAt(root: unknown, path: JsonPath, value: unknown): void {
	const parent = parentOf(root, path);
	const key = path.at(-1);
	if (parent !== undefined && key !== undefined) {
		parent[key] = value;
	}
}

export function deleteAt(root: unknown, path: JsonPath): void {
	const parent = parentOf(root, path);
	const key = path.at(-1);
	if (parent === undefined || key === undefined) {
		return;
	}
	if (Array.isArray(parent) && typeof key === 'number') {
		parent.splice(key, 1);
	} else {
		delete parent[key];
	}
}

const CANDIDATES: readonly unknown[] = [
	null, 0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 2, '', 'wrong', '2026-13-45T99:99:99Z', true, false,
	[], [1, 'a', null], {}, { nested: { deeper: [] } },
];

function jsonType(value: unknown): string {
	return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

/** A JSON value whose type differs from `value`'s. */
export function wrongValue(value: unknown, random: Random): unknown {
	const type = jsonType(value);
	const choices = CANDIDATES.filter((candidate) => jsonType(candidate) !== type);
	return structuredClone(random.pick(choices));
}

export function randomHexId(random: Random): string {
	let id = '';
	for (let i = 0; i < 8; i++) {
		id += random.int(0, 15).toString(16);
	}
	return id;
}
