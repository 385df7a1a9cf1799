/**
 * Reads a session file into a `SessionModel` piece by piece (never one string of the whole file, so
 * a session of hundreds of MB can be opened) and remembers where the last complete line ends, so
 * later appends continue from there. A v1/v2 file, which cannot be advanced incrementally, is
 * migrated in memory as a whole, as Pi does (its lines still parsed piece by piece).
 */
import { open } from 'node:fs/promises';
import { SessionPieceReader, WholeSessionReader } from '../../engine/session';
import { runSliced } from '../slicing/runSliced';
import type { SessionModel } from '../../engine/session/model';
import { decodeUtf8, readRange, scanCompleteLines } from '../sessions/completeLines';

export interface LoadedSessionModel {
	readonly model: SessionModel;
	/** Offset after the last complete line read into `model`. */
	readonly consumed: number;
}

/**
 * Each piece is parsed in one go on the caller's thread, then the file read yields. 64 KB: a
 * piece's text stays a regular heap object. A piece decoded to a string over 128 KB is a large
 * object, which the young-generation collector cannot free: each one alive at a scavenge (the
 * piece being parsed) was kept until the next full collection, tens of MB on a 100 MB session.
 * On the pruned 100 MB bench session, 256 KB pieces gave a CLI peak of 2.90–3.01× the file, an
 * open of 2.5–2.7 s and blocks up to 46 ms; 64 KB pieces 2.74–2.93×, 1.6 s and 21 ms (4 MB pieces
 * held the extension host for over half a second on a loaded machine). The pieces go into one `SessionPieceReader`, so
 * their number costs little.
 */
const DEFAULT_PIECE_BYTES = 64 * 1024;

export async function readSessionModel(path: string, pieceBytes = DEFAULT_PIECE_BYTES): Promise<LoadedSessionModel> {
	const handle = await open(path, 'r');
	try {
		const { size } = await handle.stat();
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
		}, pieceBytes);
		const model = whole ? await runSliced(whole.modelSteps()) : reader.model();
		return { model, consumed };
	} finally {
		await handle.close();
	}
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
