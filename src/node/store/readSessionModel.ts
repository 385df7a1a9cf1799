/**
 * Reads a session file into a `SessionModel` piece by piece (never one string of the whole file, so
 * a session of hundreds of MB can be opened) and remembers where the last complete line ends, so
 * later appends continue from there. A v1/v2 file, which cannot be advanced incrementally, is
 * migrated in memory as a whole, as Pi does (its lines still parsed piece by piece).
 */
import { open, type FileHandle } from 'node:fs/promises';
import { type SessionModel, SessionPieceReader, WholeSessionReader } from '../../engine/session';
import type { SliceRunner } from '../../work';
import { decodeUtf8, PARSE_PIECE_BYTES, readRange, scanCompleteLines } from '../sessions/completeLines';

export interface LoadedSessionModel {
	readonly model: SessionModel;
	/** Offset after the last complete line read into `model`. */
	readonly consumed: number;
}

/** Each piece is parsed in one go on the caller's thread, then the file read yields (see `PARSE_PIECE_BYTES`). */
export async function readSessionModel(work: SliceRunner, path: string, pieceBytes = PARSE_PIECE_BYTES, signal?: AbortSignal): Promise<LoadedSessionModel> {
	const handle = await open(path, 'r');
	try {
		const { size } = await handle.stat();
		return await readSessionModelFrom(work, handle, size, pieceBytes, signal);
	} finally {
		await handle.close();
	}
}

/** `readSessionModel` of an open file, up to `size` (a caller that took the file's identity with that size). */
export async function readSessionModelFrom(work: SliceRunner, handle: FileHandle, size: number, pieceBytes = PARSE_PIECE_BYTES, signal?: AbortSignal): Promise<LoadedSessionModel> {
	const reader = new SessionPieceReader();
	// Migrated (v1/v2) or headerless: the first line decides how every other reads, so the lines
	// are only parsed as they come and the model is made at the end (in slices).
	let whole: WholeSessionReader | undefined;
	const consumed = await scanCompleteLines(handle, 0, size, (piece) => {
		const text = decodeUtf8(piece);
		if (whole === undefined && !reader.push(text)) {
			whole = new WholeSessionReader();
		}
		whole?.push(text);
	}, pieceBytes, signal);
	const model = whole ? await work.sliced(whole.modelSteps(), signal) : reader.model();
	return { model, consumed };
}

/**
 * The complete lines in `[from, to)` of a file, or undefined when the file is now shorter than
 * `to` (it was rewritten: read it again from the start).
 */
export async function readCompleteBytes(path: string, from: number, to: number): Promise<Buffer | undefined> {
	const handle = await open(path, 'r');
	try {
		const bytes = await readRange(handle, from, to);
		return bytes.length === to - from ? bytes : undefined;
	} finally {
		await handle.close();
	}
}
