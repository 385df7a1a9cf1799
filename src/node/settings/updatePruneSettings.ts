/**
 * Changes the `contextPrune` key (or another top-level key) of `<agentDir>/settings.json` without
 * disturbing anything else:
 *   - refuses (a clear error, file untouched) when the file is not valid JSON or not an object;
 *   - takes Pi's own lock on the file, then re-reads it under the lock;
 *   - replaces only `contextPrune`, keeping every other key, its value and the key order;
 *   - writes a temporary file in the same folder and renames it over the original (atomic),
 *     keeping the file's permission bits and writing through a symlinked settings.json;
 *   - just before the rename, checks that the file still holds what was read, with the same change
 *     times (a writer that does not take the lock) and starts over if not; an empty or broken file
 *     is believed only after a second without changes (such a writer may be half-way through it);
 *   - creates the file, and its folder, when missing.
 * The JSON is written as Pi writes it: `JSON.stringify(settings, null, 2)`; a trailing newline is
 * kept when the file had one (Pi writes none).
 */
import { lstat, mkdir, readlink, realpath, rename, unlink } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { errorMessage } from '../../base/errorMessage';
import { errorCode } from '../fs/errors';
import { writeTempBeside } from '../fs/tempFile';
import { globalSettingsPath } from '../paths/agentDir';
import { PRUNE_SETTINGS_KEY } from './readPruneSettings';
import { lockSettingsFile, SettingsLockError } from './settingsLock';
import { describeSettingsProblem } from '../../engine/config';
import { readSettingsFile, type SettingsFileSnapshot } from './settingsFile';
import { isPlainObject } from '../../base/plainObject';

export type SettingsWriteFailure = 'invalid-json' | 'not-object' | 'unreadable' | 'read-only' | 'locked' | 'busy' | 'io';

export class SettingsWriteError extends Error {
	constructor(readonly kind: SettingsWriteFailure, readonly path: string, message: string) {
		super(message);
		this.name = 'SettingsWriteError';
	}
}

export interface PruneSettingsWrite {
	readonly path: string;
	/** True when settings.json did not exist before. */
	readonly created: boolean;
	/** The `contextPrune` object now in the file. */
	readonly written: Readonly<Record<string, unknown>>;
	/** Number of read-modify-write rounds (more than 1 when another writer got in between). */
	readonly attempts: number;
}

export type PruneMutation = (current: Record<string, unknown>) => Record<string, unknown>;

const MAX_ATTEMPTS = 5;
/** An empty or broken file is believed once it has not been modified for this long. */
const SETTLED_AFTER_MS = 1000;
const SETTLE_POLL_MS = 50;
const MAX_SETTLE_WAIT_MS = 3000;
const NOT_WRITABLE = new Set(['EACCES', 'EPERM', 'EROFS']);

/**
 * @param mutate gets a private copy of the current raw `contextPrune` object (`{}` when absent or
 *   not an object) and returns the new one; it may be called again if the file changed meanwhile.
 */
export async function updatePruneSettings(agentDir: string, mutate: PruneMutation): Promise<PruneSettingsWrite> {
	const { path, created, attempts, written } = await updateSettingsKey(agentDir, PRUNE_SETTINGS_KEY, (current) => {
		const next = mutate(structuredClone(isPlainObject(current) ? { ...current } : {}));
		if (!isPlainObject(next)) {
			throw new TypeError('updatePruneSettings: the mutation must return a plain object');
		}
		return next;
	});
	return { path, created, attempts, written: written as Readonly<Record<string, unknown>> };
}

export interface SettingsKeyWrite {
	readonly path: string;
	readonly created: boolean;
	/** The key's value now in the file (undefined: the key was removed). */
	readonly written: unknown;
	readonly attempts: number;
}

/**
 * Changes one top-level key of `<agentDir>/settings.json` the same safe way (see the file's comment):
 * `mutate` gets a private copy of the key's current value (undefined when absent) and returns the
 * new one, or undefined to remove the key; it may be called again if the file changed meanwhile.
 */
export async function updateSettingsKey(agentDir: string, key: string, mutate: (current: unknown) => unknown): Promise<SettingsKeyWrite> {
	const path = globalSettingsPath(agentDir);
	await mkdir(dirname(path), { recursive: true }).catch((error: unknown) => {
		throw writeFailure(path, error);
	});
	const lock = await lockSettingsFile(path).catch((error: unknown) => {
		throw error instanceof SettingsLockError && !NOT_WRITABLE.has(error.code ?? '')
			? new SettingsWriteError('locked', path, error.message)
			: writeFailure(path, error);
	});
	try {
		const target = await writeTarget(path);
		for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
			const before = await readSettled(target);
			const settings = usableSettings(path, before);
			const written = mutate(structuredClone(settings[key]));
			const text = serialize(replaceKey(settings, key, written), before.bytes);
			const tempPath = await writeTemp(target, text, before.mode, path);
			let renamed = false;
			try {
				const lost = lock.compromised();
				if (lost) {
					throw new SettingsWriteError('locked', path, `Lost the lock on ${path} while saving: ${lost.message}`);
				}
				if (!unchanged(before, await readSettingsFile(target))) {
					continue; // someone wrote without the lock: start over from their version
				}
				await rename(tempPath, target).catch((error: unknown) => {
					throw writeFailure(path, error);
				});
				renamed = true;
				return { path, created: before.bytes === undefined, written, attempts: attempt };
			} finally {
				if (!renamed) {
					await unlink(tempPath).catch(() => undefined);
				}
			}
		}
		throw new SettingsWriteError('busy', path, `${path} kept changing while saving (another program is writing it). Try again.`);
	} finally {
		await lock.release();
	}
}

/** The settings object to edit, or a clear refusal when the file cannot be edited safely. */
function usableSettings(path: string, snapshot: SettingsFileSnapshot): Readonly<Record<string, unknown>> {
	const { state } = snapshot;
	if (state.kind === 'invalid-json' || state.kind === 'not-object' || state.kind === 'unreadable') {
		throw new SettingsWriteError(state.kind, path, `${describeSettingsProblem(path, state) ?? path} Pi Condense did not change it.`);
	}
	if (snapshot.mode !== undefined && (snapshot.mode & 0o222) === 0) {
		throw new SettingsWriteError('read-only', path, `${path} is read-only. Make it writable (for example chmod u+w) to change Pi Condense settings.`);
	}
	return snapshot.settings ?? {};
}

/** settings.json itself, or the file it links to (a dotfiles manager's symlink must stay a symlink). */
async function writeTarget(path: string): Promise<string> {
	try {
		if (!(await lstat(path)).isSymbolicLink()) {
			return path;
		}
	} catch {
		return path;
	}
	try {
		return await realpath(path);
	} catch {
		// A dangling link (dotfiles not checked out yet): create the file it points at, as Pi would.
		return resolve(dirname(path), await readlink(path));
	}
}

/** `writeTempBeside`, its failure worded as a settings write failure. */
function writeTemp(target: string, text: string, mode: number | undefined, path: string): Promise<string> {
	return writeTempBeside(target, text, mode).catch((error: unknown) => {
		throw writeFailure(path, error);
	});
}

function replaceKey(settings: Readonly<Record<string, unknown>>, key: string, value: unknown): Record<string, unknown> {
	if (!Object.hasOwn(settings, key)) {
		return { ...settings, [key]: value };
	}
	return Object.fromEntries(Object.entries(settings).map(([k, v]) => [k, k === key ? value : v]));
}

function serialize(settings: Record<string, unknown>, previous: Buffer | undefined): string {
	const trailingNewline = previous !== undefined && previous.length > 0 && previous[previous.length - 1] === 0x0a;
	return JSON.stringify(settings, null, 2) + (trailingNewline ? '\n' : '');
}

/**
 * A program that rewrites settings.json in place without the lock truncates it first, and may be
 * paused right there (a busy machine): caught then, the file reads empty (which would count as `{}`
 * and drop that program's keys) or broken. So an empty or broken file is believed only once nobody
 * has touched it for `SETTLED_AFTER_MS`; until then it is read again.
 */
async function readSettled(path: string): Promise<SettingsFileSnapshot> {
	const started = Date.now();
	for (;;) {
		const readAt = Date.now();
		const snapshot = await readSettingsFile(path);
		const suspect = snapshot.state.kind === 'empty' || snapshot.state.kind === 'invalid-json';
		const modifiedMs = snapshot.modifiedMs ?? 0;
		// Its age when it was read: a pause of this thread after the read (a busy extension host) must not make a
		// file caught half-written look settled.
		const age = readAt - modifiedMs;
		// A modification time in the future (clock skew) cannot be judged: take the file as it is.
		if (!suspect || age >= SETTLED_AFTER_MS || modifiedMs > Date.now()) {
			return snapshot;
		}
		if (Date.now() - started > MAX_SETTLE_WAIT_MS) {
			throw new SettingsWriteError('busy', path, `${path} is ${snapshot.state.kind === 'empty' ? 'empty' : 'not valid JSON'} and keeps being modified (another program is writing it?). Try again in a moment.`);
		}
		await new Promise((resolve) => setTimeout(resolve, SETTLE_POLL_MS));
	}
}

/** Same bytes and same stamp (a writer that truncated and rewrote the same bytes still counts). */
function unchanged(before: SettingsFileSnapshot, now: SettingsFileSnapshot): boolean {
	const sameBytes = before.bytes === undefined || now.bytes === undefined ? before.bytes === now.bytes : before.bytes.equals(now.bytes);
	return sameBytes && before.stamp === now.stamp && !(before.stamp ?? '').endsWith(':torn');
}

function writeFailure(path: string, error: unknown): SettingsWriteError {
	if (NOT_WRITABLE.has(errorCode(error) ?? '')) {
		return new SettingsWriteError('read-only', path, `Cannot write ${path} or its folder (${errorCode(error)}): check the permissions of ${dirname(path)}.`);
	}
	return new SettingsWriteError('io', path, `Could not save ${path}: ${errorMessage(error)}`);
}
