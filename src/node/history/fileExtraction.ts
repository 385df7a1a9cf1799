/**
 * Reading one session file for the index: what it needs (`decideFile`), then its lines from the
 * stored offset, extracted in batches of a few MB of lines, each handed over (and awaited) before
 * the next is read. Runs on the calling thread (`inThreadReader`: the engine's pass in slices) or
 * in an extraction worker (`extractionPool.ts`, the file read synchronously there); both go
 * through `readSessionFile`.
 */
import { open } from 'node:fs/promises';
import { extractLinesSteps } from '../../engine/history';
import type { Steps } from '../../engine/steps';
import { errorCode } from '../fs/errors';
import { READ_WITHOUT_BLOCKING } from '../fs/openFlags';
import type { ReadBuffers } from '../sessions/readAheadLines';
import { decideFile, type ExtractedBatch, type FileJob, type FileSink, type OpenedFile } from './fileIndexer';
import { readLinesFrom } from './fileLines';
import { RowGatherer } from './rowColumns';

/** Session bytes whose rows are handed over together (a stopped build keeps at least what was written). */
export const GATHER_BYTES = 4 * 1024 * 1024;

/** Runs a long pass of the engine: in slices on a shared thread, at once in a worker. */
export type StepRunner = <T>(steps: Steps<T>, signal?: AbortSignal) => Promise<T>;

/** Reads a file for the index, telling `sink` what it needs and, to read, each batch (each awaited). */
export type FileReader = (job: FileJob, sink: FileSink, signal?: AbortSignal) => Promise<void>;

/** Reading on the calling thread, the engine's pass run by `run`. */
export function inThreadReader(run: StepRunner): FileReader {
	return async (job, sink, signal) => {
		let handle;
		try {
			handle = await open(job.path, READ_WITHOUT_BLOCKING); // a FIFO in its place since it was listed: `decideFile` finds it is no file
		} catch (error) {
			if (!isGone(error)) {
				throw error;
			}
			await sink.decided({ kind: 'removed' });
			return;
		}
		try {
			await readSessionFile(job, handle, run, sink, signal);
		} finally {
			await handle.close();
		}
	};
}

/** A file that is not there (any more): it leaves the index. */
export function isGone(error: unknown): boolean {
	return errorCode(error) === 'ENOENT' || errorCode(error) === 'ENOTDIR';
}

/**
 * Decides what the open `file` needs, and reads its lines when it needs that. `buffers`: the read
 * buffers of a reader that reads one file at a time (an extraction thread).
 */
export async function readSessionFile(job: FileJob, file: OpenedFile, run: StepRunner, sink: FileSink, signal?: AbortSignal, buffers?: ReadBuffers): Promise<void> {
	const decision = await decideFile(job, file);
	await sink.decided(decision);
	if (decision.kind !== 'read') {
		return;
	}
	let summary = decision.summary;
	const rows = new RowGatherer();
	let bytes = 0;
	let reached = decision.start;
	const handOver = async (last: boolean): Promise<void> => {
		const batch: ExtractedBatch = { summary, rows: rows.take(), reached, bytes, last };
		bytes = 0;
		await sink.batch(batch);
	};
	try {
		const consumed = await readLinesFrom(file, decision.start, decision.base.size, async (lines, after) => {
			const extracted = await run(extractLinesSteps(summary, lines), signal);
			summary = extracted.summary;
			rows.add(extracted);
			bytes += after - reached;
			reached = after;
			if (bytes >= GATHER_BYTES) {
				await handOver(false);
			}
		}, signal, buffers);
		reached = consumed;
		await handOver(true);
	} finally {
		rows.release(); // each batch was copied out of its buffers
	}
}
