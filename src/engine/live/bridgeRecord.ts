/**
 * The discovery record a bridge writes for its Pi process: where its socket is and the token that
 * opens it. VS Code reads records from a private folder, but treats each as hostile input anyway: a
 * record that is not exactly this shape is ignored. Pure.
 */
import { integerField, MISSING, optional, parseObject, stringField } from './jsonFields';

export const BRIDGE_PROTOCOL = 1;

export interface BridgeRecord {
	readonly protocol: number;
	readonly pid: number;
	/** A Unix socket beside the record, or a named pipe on Windows. */
	readonly socket: string;
	/** 32 random bytes, hex: every connection starts with it. */
	readonly token: string;
	readonly piVersion: string;
	readonly cwd: string;
	readonly sessionFile: string | undefined;
	/** Epoch ms the bridge started. */
	readonly startedAt: number;
}

/** `<pid>.json`: one record per Pi process. */
export const RECORD_NAME = /^([1-9]\d{0,9})\.json$/;
/** `<pid>-<16 hex>.sock`, beside the record. */
export const SOCKET_NAME = /^([1-9]\d{0,9})-[0-9a-f]{16}\.sock$/;
/** `\\.\pipe\pi-condense-vscode-<pid>-<16 hex>` on Windows. */
export const PIPE_PATH = /^\\\\\.\\pipe\\pi-condense-vscode-([1-9]\d{0,9})-[0-9a-f]{16}$/;
export const TOKEN_PATTERN = /^[0-9a-f]{64}$/;
/** Larger than any record we write; a bigger file is not read. */
export const MAX_RECORD_BYTES = 16 * 1024;

export type RecordParse = { readonly ok: true; readonly record: BridgeRecord } | { readonly ok: false; readonly problem: string };

/**
 * Reads a record's text. `pidOfName` is the pid its file name says; the record must agree, and its
 * socket must be named for the same pid (`socketName` is the socket's base name, or the whole pipe path).
 */
export function parseBridgeRecord(text: string, pidOfName: number, socketName: (socket: string) => string): RecordParse {
	const object = parseObject(text);
	if (!object) {
		return { ok: false, problem: 'not a JSON object' };
	}
	const protocol = integerField(object, 'protocol', 1);
	if (protocol !== BRIDGE_PROTOCOL) {
		return { ok: false, problem: `protocol ${String(object.protocol)} is not ${BRIDGE_PROTOCOL}` };
	}
	const pid = integerField(object, 'pid', 1);
	const socket = stringField(object, 'socket');
	const token = stringField(object, 'token');
	const piVersion = stringField(object, 'piVersion', 64);
	const cwd = stringField(object, 'cwd');
	const sessionFile = optional(object, 'sessionFile', (o, k) => stringField(o, k));
	const startedAt = integerField(object, 'startedAt');
	if (pid === undefined || socket === undefined || token === undefined || piVersion === undefined || cwd === undefined || sessionFile === undefined || startedAt === undefined) {
		return { ok: false, problem: 'a field is missing or has the wrong type' };
	}
	if (pid !== pidOfName) {
		return { ok: false, problem: `pid ${pid} is not the pid of its file name (${pidOfName})` };
	}
	if (!TOKEN_PATTERN.test(token)) {
		return { ok: false, problem: 'the token is not 32 bytes of hex' };
	}
	const name = socketName(socket);
	const socketPid = SOCKET_NAME.exec(name)?.[1] ?? PIPE_PATH.exec(name)?.[1];
	if (socketPid === undefined || Number(socketPid) !== pid) {
		return { ok: false, problem: 'the socket is not one a bridge of this pid makes' };
	}
	return { ok: true, record: { protocol, pid, socket, token, piVersion, cwd, sessionFile: sessionFile === MISSING ? undefined : sessionFile, startedAt } };
}
