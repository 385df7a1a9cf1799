/**
 * Entry point of `dist/history-worker.js`: a thread that reads session files and extracts what the
 * session index keeps of them (`fileExtraction.ts`), so the thread that writes the index (the
 * extension host's, or the command line's) only writes. Its own thread: the engine's passes run at
 * once, and files are opened synchronously. Jobs run one at a time, in the order they come; a batch waits while `heldBytes` of
 * lines are unacknowledged, which bounds the memory a build holds whatever the history's size.
 */
import { closeSync, fstatSync, openSync, read, readSync } from 'node:fs';
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { errorMessage } from '../../../base/errorMessage';
import { runSteps } from '../../../engine/steps';
import { errorCode } from '../../fs/errors';
import { isGone, readSessionFile, type StepRunner } from '../fileExtraction';
import { READ_WITHOUT_BLOCKING } from '../../fs/openFlags';
import { ReadBuffers } from '../../sessions/readAheadLines';
import { movableBuffers } from '../rowColumns';
import type { FileJob, FileSink, OpenedFile } from '../fileIndexer';
import { HELD_BYTES, type FromWorker, type ToWorker, type WorkerSettings } from './protocol';

function parentOrThrow(): MessagePort {
	if (!parentPort) {
		throw new Error('history-worker.js runs as a worker thread');
	}
	return parentPort;
}

const port = parentOrThrow();

const runAtOnce: StepRunner = (steps) => Promise.resolve(runSteps(steps));
const send = (message: FromWorker): void => port.postMessage(message);

const heldBytes = (workerData as Partial<WorkerSettings> | undefined)?.heldBytes ?? HELD_BYTES;
let unackedBytes = 0;
let wake: (() => void) | undefined;
let jobs: Promise<void> = Promise.resolve();
/** Jobs run one at a time: one pair of read buffers serves them all. */
const readBuffers = new ReadBuffers();

port.on('message', (message: ToWorker) => {
	if (message.type === 'ack') {
		unackedBytes -= message.bytes;
		wake?.();
		return;
	}
	jobs = jobs.then(() => runJob(message.id, message.job));
});

async function runJob(id: number, job: FileJob): Promise<void> {
	const sink: FileSink = {
		decided: (decision) => {
			send({ type: 'decided', id, decision });
			return Promise.resolve();
		},
		batch: async (batch) => {
			while (unackedBytes >= heldBytes) {
				await new Promise<void>((resolve) => {
					wake = resolve;
				});
			}
			unackedBytes += batch.bytes;
			// The rows' buffers (numbers, texts) move to the writer's thread without a copy.
			port.postMessage({ type: 'batch', id, batch } satisfies FromWorker, movableBuffers(batch.rows));
		},
	};
	try {
		let fd: number;
		try {
			fd = openSync(job.path, READ_WITHOUT_BLOCKING);
		} catch (error) {
			if (!isGone(error)) {
				throw error;
			}
			await sink.decided({ kind: 'removed' });
			send({ type: 'done', id });
			return;
		}
		try {
			await readSessionFile(job, openedFile(fd), runAtOnce, sink, undefined, readBuffers);
		} finally {
			closeSync(fd);
		}
		send({ type: 'done', id });
	} catch (error) {
		send({ type: 'failed', id, message: errorMessage(error), code: errorCode(error) });
	}
}

/**
 * A file descriptor as the reads expect an open file. The lines are read one piece ahead
 * (`readLinesFrom`): that read goes to the file system's threads, so copying the next piece out of
 * the page cache (0.5-0.8 s of a cold build of the bench history, all read synchronously here
 * before) is done there while this thread parses the current one. A read this thread waits for at
 * once (the first line, a file's first piece, the rest of a long line) is made here: this thread has
 * nothing else to do meanwhile, and a pool thread's read, then the turn of this thread's event
 * loop, took longer than the copy (see `ReadAheadFile`).
 */
function openedFile(fd: number): OpenedFile {
	return {
		read: (buffer, offset, length, position) => {
			try {
				return Promise.resolve({ bytesRead: readSync(fd, buffer, offset, length, position) });
			} catch (error) {
				// A failed read rejects, as an asynchronous one does, so the reader's cleanup (its buffers given back) runs.
				return Promise.reject(error instanceof Error ? error : new Error(String(error)));
			}
		},
		readAhead: (buffer, offset, length, position) => new Promise((resolve, reject) => {
			read(fd, buffer, offset, length, position, (error, bytesRead) => (error ? reject(error) : resolve({ bytesRead })));
		}),
		stat: () => Promise.resolve(fstatSync(fd)),
	};
}
