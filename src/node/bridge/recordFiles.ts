/**
 * Discovery records on disk: a bridge writes `<pid>.json` (mode 0600, through a temporary file and
 * a rename, so a reader never sees half a record) and removes it with its socket; VS Code reads the
 * records of a checked private folder, each opened without following links and used only when it
 * is a regular file of ours, closed to others, small, and a valid record whose socket sits beside it.
 */
import { randomBytes } from 'node:crypto';
import { constants, rmSync } from 'node:fs';
import { open, readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { type BridgeRecord, MAX_RECORD_BYTES, parseBridgeRecord, RECORD_NAME, SOCKET_NAME } from '../../engine/live';
import { errorMessage } from '../../base/errorMessage';
import { errorCode } from '../fs/errors';
import { READ_WITHOUT_BLOCKING } from '../fs/openFlags';
import { currentPlatform, type Platform } from './runtimeFolder';

export function recordPath(folder: string, pid: number): string {
	return join(folder, `${pid}.json`);
}

/** A fresh socket path for `pid`: a Unix socket in the folder, or a named pipe on Windows. */
export function newSocketPath(folder: string, pid: number, on: Platform = currentPlatform()): string {
	const name = `${pid}-${randomBytes(8).toString('hex')}`;
	return on.platform === 'win32' ? `\\\\.\\pipe\\pi-condense-vscode-${name}` : join(folder, `${name}.sock`);
}

/** Writes the record atomically, readable by its owner only. */
export async function writeRecord(folder: string, record: BridgeRecord): Promise<void> {
	const temporary = join(folder, `.${record.pid}.${randomBytes(6).toString('hex')}.tmp`);
	const file = await open(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o600);
	try {
		await file.writeFile(`${JSON.stringify(record)}\n`, 'utf8');
		await file.close();
		await rename(temporary, recordPath(folder, record.pid));
	} catch (error) {
		await file.close().catch(() => undefined);
		await rm(temporary, { force: true });
		throw error;
	}
}

/** Removes a record and its socket (a named pipe goes away with its server). Missing files are fine. */
export async function removeRecord(folder: string, pid: number, socket: string | undefined): Promise<void> {
	await rm(recordPath(folder, pid), { force: true });
	if (socket !== undefined && isOwnSocket(folder, socket)) {
		await rm(socket, { force: true });
	}
}

/** The same, synchronously: for a process that is exiting. */
export function removeRecordNow(folder: string, pid: number, socket: string | undefined): void {
	rmSync(recordPath(folder, pid), { force: true });
	if (socket !== undefined && isOwnSocket(folder, socket)) {
		rmSync(socket, { force: true });
	}
}

/** Only a socket named as a bridge names it, in this folder: a record cannot make us remove anything else. */
function isOwnSocket(folder: string, socket: string): boolean {
	return dirname(socket) === folder && SOCKET_NAME.test(basename(socket));
}

export interface FoundRecord {
	readonly path: string;
	readonly record: BridgeRecord;
}

export interface RecordScan {
	readonly records: readonly FoundRecord[];
	/** Files that looked like records and were not used, with why. */
	readonly problems: readonly string[];
}

/** The records of a folder already checked with `checkPrivateFolder`. */
export async function readRecords(folder: string, on: Platform = currentPlatform()): Promise<RecordScan> {
	const records: FoundRecord[] = [];
	const problems: string[] = [];
	let names: string[];
	try {
		names = await readdir(folder);
	} catch (error) {
		return { records, problems: [`${folder} cannot be listed: ${errorMessage(error)}`] };
	}
	for (const name of names) {
		const pid = RECORD_NAME.exec(name)?.[1];
		if (pid === undefined) {
			continue;
		}
		const path = join(folder, name);
		const read = await readOwnFile(path, on);
		if (!read.ok) {
			problems.push(`${path}: ${read.problem}`);
			continue;
		}
		const socketName = (socket: string): string => (on.platform === 'win32' ? socket : isOwnSocket(folder, socket) ? basename(socket) : '');
		const parsed = parseBridgeRecord(read.text, Number(pid), socketName);
		if (parsed.ok) {
			records.push({ path, record: parsed.record });
		} else {
			problems.push(`${path}: ${parsed.problem}`);
		}
	}
	return { records, problems };
}

type OwnFile = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly problem: string };

async function readOwnFile(path: string, on: Platform): Promise<OwnFile> {
	let file;
	try {
		// O_NOFOLLOW: a link in place of a record is refused by the open itself; O_NONBLOCK: a FIFO does not hang us.
		file = await open(path, READ_WITHOUT_BLOCKING | (constants.O_NOFOLLOW ?? 0));
	} catch (error) {
		return { ok: false, problem: errorCode(error) === 'ELOOP' ? 'a symbolic link' : errorMessage(error) };
	}
	try {
		const stats = await file.stat();
		if (!stats.isFile()) {
			return { ok: false, problem: 'not a regular file' };
		}
		if (on.platform !== 'win32' && ((on.uid !== undefined && stats.uid !== on.uid) || (stats.mode & 0o077) !== 0)) {
			return { ok: false, problem: `not a private file of this user (uid ${stats.uid}, mode ${(stats.mode & 0o777).toString(8)})` };
		}
		if (stats.size > MAX_RECORD_BYTES) {
			return { ok: false, problem: `${stats.size} bytes, more than a record holds` };
		}
		const buffer = Buffer.alloc(MAX_RECORD_BYTES + 1);
		const { bytesRead } = await file.read(buffer, 0, buffer.length, 0);
		return bytesRead > MAX_RECORD_BYTES ? { ok: false, problem: 'grew past the size a record has' } : { ok: true, text: buffer.toString('utf8', 0, bytesRead) };
	} finally {
		await file.close();
	}
}
