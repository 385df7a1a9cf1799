/**
 * In-memory migration of v1 and v2 session files to v3, with Pi's rules. Pure: returns new objects
 * and never writes anything back (Pi rewrites the file when it opens it; we only read).
 *
 * - v1 → v2: every entry gets an `id` and a `parentId` chaining it to the previous entry, and a
 *   compaction's `firstKeptEntryIndex` (an index into the parsed entries, header = 0) becomes
 *   `firstKeptEntryId`.
 * - v2 → v3: message role `hookMessage` becomes `custom`.
 *
 * Pi makes up random ids during migration; ours are derived from the entry's position, so that
 * reading the same file twice gives the same model.
 */
import { mapSteps, paced, type Steps } from '../steps';
import { isPlainObject } from '../../base/plainObject';

/** One successfully JSON-parsed line, header included (index 0 when the file is valid). */
export interface ParsedValue {
	readonly value: unknown;
	readonly line: number;
}

/** Migrates a v1/v2 file's values to the current version as Pi does, in steps: an old session may be large. */
export function* migrateValuesSteps(values: readonly ParsedValue[], fromVersion: number): Steps<ParsedValue[]> {
	let migrated = values.slice();
	if (fromVersion < 2) {
		migrated = yield* migrateV1ToV2Steps(migrated);
	}
	if (fromVersion < 3) {
		migrated = yield* mapSteps(migrated, renameHookMessage);
	}
	return migrated;
}

function positionalId(index: number): string {
	return index.toString(16).padStart(8, '0');
}

function* migrateV1ToV2Steps(values: readonly ParsedValue[]): Steps<ParsedValue[]> {
	const idAt = new Map<number, string>();
	let previousId: string | null = null;
	const migrated: ParsedValue[] = [];
	for (let index = 0; index < values.length; index++) {
		if (paced(index)) {
			yield;
		}
		const parsed = values[index] as ParsedValue;
		const value = parsed.value;
		if (!isPlainObject(value) || value['type'] === 'session') {
			migrated.push(parsed);
			continue;
		}
		const id = positionalId(index);
		const next: Record<string, unknown> = { ...value, id, parentId: previousId };
		idAt.set(index, id);
		previousId = id;
		if (value['type'] === 'compaction' && typeof value['firstKeptEntryIndex'] === 'number') {
			// Only an entry already migrated (an earlier one) has an id to point at, as in Pi.
			const keptId = idAt.get(value['firstKeptEntryIndex']);
			if (keptId !== undefined) {
				next['firstKeptEntryId'] = keptId;
			}
			delete next['firstKeptEntryIndex'];
		}
		migrated.push({ value: next, line: parsed.line });
	}
	return migrated;
}

function renameHookMessage(parsed: ParsedValue): ParsedValue {
	const value = parsed.value;
	if (!isPlainObject(value) || value['type'] !== 'message') {
		return parsed;
	}
	const message = value['message'];
	if (!isPlainObject(message) || message['role'] !== 'hookMessage') {
		return parsed;
	}
	return { value: { ...value, message: { ...message, role: 'custom' } }, line: parsed.line };
}
