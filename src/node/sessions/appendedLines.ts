/**
 * Appended lines read into a model a piece at a time. A first flush of a large session appends
 * tens of megabytes in one go, and parsing them at once held the extension host for seconds.
 */
import { SessionPieceReader, type SessionModel } from '../../engine/session';
import type { Steps } from '../../engine/steps';
import { decodeUtf8, PARSE_PIECE_BYTES } from './completeLines';

const NEWLINE = 0x0a;

/**
 * `model` advanced by `bytes`, the complete lines written after its last complete line (as
 * `appendToSession` takes them, decoded), yielding after each piece. Undefined when the model
 * cannot be advanced (see `appendToSession`): read the whole file again.
 */
export function* appendedModelSteps(model: SessionModel, bytes: Uint8Array): Steps<SessionModel | undefined> {
	if (bytes.length === 0) {
		return model;
	}
	const reader = yield* SessionPieceReader.afterSteps(model);
	if (reader === undefined) {
		return undefined;
	}
	return (yield* pushLinesSteps(reader, bytes)) ? reader.model() : undefined;
}

/**
 * Pushes `bytes` into `reader` a piece at a time (cut after a line end, so no character is split;
 * see `PARSE_PIECE_BYTES`), yielding after each; false when it refuses one.
 */
export function* pushLinesSteps(reader: SessionPieceReader, bytes: Uint8Array, pieceBytes = PARSE_PIECE_BYTES): Steps<boolean> {
	for (let start = 0; start < bytes.length;) {
		let end = Math.min(bytes.length, start + pieceBytes);
		if (end < bytes.length) {
			const before = bytes.lastIndexOf(NEWLINE, end - 1);
			// A line longer than a piece goes whole into its own.
			const after = before >= start ? before : bytes.indexOf(NEWLINE, end);
			end = after === -1 ? bytes.length : after + 1;
		}
		if (!reader.push(decodeUtf8(bytes.subarray(start, end)))) {
			return false;
		}
		start = end;
		yield;
	}
	return true;
}
