/**
 * The thread that holds a window's session index (`dist/history-service.js`; see `protocol.ts`):
 * opens it, answers the window's calls one message at a time (each call stops when the window
 * aborts it) and closes it when asked. A build's extraction threads are started from here.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { errorMessage } from '../../../base/errorMessage';
import { isWorkStopped, WorkScope } from '../../../work';
import { HistoryIndex } from '../historyIndex';
import { IndexOffError } from '../indexDatabase';
import { searchHistory } from '../historySearch';
import { historyCosts } from '../historyCostsReport';
import type { FailureKind, FromService, ServiceCalls, ServiceMethod, ServiceStart, ToService } from './protocol';

function parentOrThrow(): MessagePort {
	if (!parentPort) {
		throw new Error('history-service.js runs as a worker thread');
	}
	return parentPort;
}

const port = parentOrThrow();
const start = workerData as ServiceStart;
const send = (message: FromService): void => port.postMessage(message);
const work = WorkScope.root('session index', (where, error) => send({ type: 'failed', id: -1, kind: 'failed', message: `${where}: ${errorMessage(error)}` }));
const running = new Map<number, AbortController>();

type Answer<M extends ServiceMethod> = Promise<ServiceCalls[M]['answer']>;
type Handlers = { readonly [M in ServiceMethod]: (index: HistoryIndex, args: ServiceCalls[M]['args'], signal: AbortSignal, id: number) => Answer<M> };

const handlers: Handlers = {
	stored: async (index, { roots }) => index.stored(roots),
	refresh: (index, { roots, first }, signal, id) => index.refresh(roots, { signal, first, onProgress: (progress) => send({ type: 'progress', id, progress }) }),
	fileChanged: async (index, { path, root }, signal) => {
		await index.fileChanged(path, root, signal);
		return (await index.stored([root])).find((row) => row.path === path);
	},
	fileRemoved: async (index, { path }) => {
		await index.fileRemoved(path);
		return null;
	},
	search: (index, { input, options }) => searchHistory(index, input, options),
	clear: async (index) => {
		await index.clear();
		return null;
	},
	costs: (index, { roots, timeZone, top }, signal) => historyCosts(index, roots, work, { ...(timeZone === undefined ? {} : { timeZone }), ...(top === undefined ? {} : { top }) }, signal),
	accountsDue: (index, { roots }) => index.accountsDue(roots, () => undefined),
	storeAccounts: (index, { path, consumed, basis, accounts }) => index.storeAccounts(path, consumed, basis, accounts),
};

function failureKind(error: unknown, signal: AbortSignal): FailureKind {
	if (signal.aborted || isWorkStopped(error)) {
		return 'stopped';
	}
	return error instanceof IndexOffError ? 'off' : 'failed';
}

async function answer(index: HistoryIndex, message: Extract<ToService, { type: 'call' }>): Promise<void> {
	const controller = new AbortController();
	running.set(message.id, controller);
	const handler = handlers[message.method] as (index: HistoryIndex, args: unknown, signal: AbortSignal, id: number) => Promise<unknown>;
	try {
		const value = await work.run((signal) => handler(index, message.args, signal, message.id), controller.signal);
		send({ type: 'answer', id: message.id, answer: value as ServiceCalls[ServiceMethod]['answer'] });
	} catch (error) {
		send({ type: 'failed', id: message.id, kind: failureKind(error, controller.signal), message: errorMessage(error) });
	} finally {
		running.delete(message.id);
	}
}

/** The index, or undefined when it is off (a notice said why); never rejects. */
async function openIndex(): Promise<HistoryIndex | undefined> {
	try {
		return await HistoryIndex.open({
			path: start.path,
			ownFolder: start.ownFolder,
			distDir: start.distDir,
			slices: work,
			batchBytes: start.batchBytes,
			notify: (notice) => send({ type: 'notice', notice }),
		});
	} catch (error) {
		send({ type: 'notice', notice: { kind: 'off', reason: 'failed', path: start.path, detail: errorMessage(error) } });
		return undefined;
	}
}

function handle(index: HistoryIndex | undefined, message: ToService): void {
	switch (message.type) {
		case 'call':
			if (index) {
				void answer(index, message);
			} else {
				send({ type: 'failed', id: message.id, kind: 'off', message: 'the session index is off' });
			}
			return;
		case 'abort':
			running.get(message.id)?.abort();
			return;
		case 'close':
			for (const controller of running.values()) {
				controller.abort();
			}
			void work.close().then(() => index?.close()).finally(() => {
				send({ type: 'closed' });
				port.close();
			});
			return;
	}
}

const opened = openIndex();
void opened.then((index) => send({ type: 'opened', engine: index?.engine }));
// Calls that come while the index opens wait for it, in the order they came.
port.on('message', (message: ToService) => void opened.then((index) => handle(index, message)));
