/**
 * The little of SQLite the history index uses, over either engine (`node:sqlite` where the running
 * Node has it, else SQLite compiled to WebAssembly): statements with positional parameters, and
 * failures sorted into what the index does about them.
 */
import { errorMessage } from '../../../base/errorMessage';

/** A value bound to a statement; bytes bind as a blob. */
export type SqlValue = number | string | null | Uint8Array;
export type SqlRow = Record<string, SqlValue>;

export type SqlEngineName = 'node:sqlite' | 'wasm';

/** `(?, ?, ?)`: the parameters of an `IN` list of `values`, bound in their order. */
export function inList(values: readonly unknown[]): string {
	return `(${values.map(() => '?').join(', ')})`;
}

export interface SqlStatement {
	run(params?: readonly SqlValue[]): void;
	get(params?: readonly SqlValue[]): SqlRow | undefined;
	all(params?: readonly SqlValue[]): SqlRow[];
}

export interface SqlDatabase {
	readonly engine: SqlEngineName;
	exec(sql: string): void;
	/** A prepared statement, cached by its text for the life of the connection. */
	prepare(sql: string): SqlStatement;
	/** Called with the cross-process lock held, before any statement (the WebAssembly engine clears a lock left by a killed process). */
	beforeUse(): void;
	close(): void;
}

/**
 * What went wrong, for what to do next: `corrupt` (not a database, or a damaged one: moved aside
 * and rebuilt), `unwritable` (read-only file or folder, full disk, I/O error, cannot open: the
 * index is off until the next start), `other` (a bug of ours: reported).
 */
export type SqlFailure = 'corrupt' | 'unwritable' | 'other';

/** SQLite's primary result codes we act on (`node:sqlite` gives them as `errcode`; the WebAssembly build only its message). */
const CORRUPT_CODES = new Set([11, 26]);
const UNWRITABLE_CODES = new Set([8, 10, 13, 14, 23]);

const CORRUPT_MESSAGES = ['file is not a database', 'database disk image is malformed'];
const UNWRITABLE_MESSAGES = ['attempt to write a readonly database', 'disk I/O error', 'database or disk is full', 'unable to open database file', 'Could not open the database', 'authorization denied'];

export function sqlFailureOf(error: unknown): SqlFailure {
	const code = typeof error === 'object' && error !== null && 'errcode' in error && typeof error.errcode === 'number' ? error.errcode & 0xff : undefined;
	if (code !== undefined) {
		return CORRUPT_CODES.has(code) ? 'corrupt' : UNWRITABLE_CODES.has(code) ? 'unwritable' : 'other';
	}
	const message = errorMessage(error);
	if (CORRUPT_MESSAGES.some((text) => message.includes(text))) {
		return 'corrupt';
	}
	if (UNWRITABLE_MESSAGES.some((text) => message.includes(text))) {
		return 'unwritable';
	}
	const fsCode = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
	return ['EACCES', 'EPERM', 'EROFS', 'ENOSPC', 'EDQUOT', 'ENOTDIR', 'EIO'].includes(fsCode) ? 'unwritable' : 'other';
}
