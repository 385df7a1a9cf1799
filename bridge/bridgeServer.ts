/**
 * The bridge's endpoint: a Unix socket (a named pipe on Windows) that only a client holding the
 * record's token may use. The first line must be the token (compared in constant time) within 10
 * seconds; anything else closes the connection without a word. Connections that have not given the
 * token wait in a small pool of their own, the oldest closed when a new one comes, so idle
 * connections can never take the places of VS Code windows that give the token. Sends never block
 * Pi: a line is handed to the socket's buffer, and a client that stops reading is dropped instead
 * of buffered without end, or waited for without end. Exact text goes out in chunks, made in slices
 * between which Pi's event loop runs.
 */
import { chmod } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { errorMessage } from '../src/base/errorMessage';
import { unreachable } from '../src/base/unreachable';
import { BRIDGE_PROTOCOL, bridgeLine, type BridgeMessage, type BridgeResults, type ClientCall, MAX_HELLO_CHARS, MAX_PART_CHARS, parseClientMessage, resultOf, type SentDigest, TEXT_CHUNK_CHARS } from '../src/engine/live';
import type { Steps } from '../src/engine/steps';
import { tokensEqual } from '../src/node/bridge/bridgeToken';
import { LineReader } from '../src/node/bridge/lineReader';
import { isWorkStopped, WorkStopped, type SliceRunner } from '../src/work';

/** Calls are short; a longer line closes the connection. */
const MAX_CALL_CHARS = 4096;
/**
 * VS Code sends the token as soon as it is connected, but its extension host may be busy for a while
 * (other extensions, a loaded machine): a second was too short, and a refused VS Code waits 15 s to try
 * again. A connection that never says anything only holds a place in the small pool of its own.
 */
const HELLO_TIMEOUT_MS = 10_000;
/** Connections that gave the token (VS Code windows). */
const MAX_CLIENTS = 8;
/** Connections that have not given it yet: the oldest is closed to make room for a new one. */
const MAX_PENDING = 4;
/** A client that reads nothing of a text for this long is not reading: it is dropped. */
const DRAIN_TIMEOUT_MS = 15_000;
/** A client this far behind is not reading: it is dropped rather than buffered. */
const MAX_BUFFERED_BYTES = 32 * 1024 * 1024;
/** Exact text waits for the client to read before more is made. */
const TEXT_HIGH_WATER_BYTES = 4 * 1024 * 1024;
/** How long a client has to close its end when the bridge stops. */
const CLOSE_GRACE_MS = 300;

export interface BridgeCalls {
	/** The runtime's scope: exact text is made in slices under it, between which Pi's event loop runs. */
	readonly work: SliceRunner;
	welcome(): Promise<{ readonly state: BridgeResults['state']; readonly last: SentDigest | undefined }>;
	state(): BridgeResults['state'];
	lastRequest(): Promise<SentDigest | undefined>;
	/** The exact text of a part, emitted in pieces; undefined when that request or part is gone. */
	text(seq: number, part: Extract<ClientCall, { method: 'requestText' }>['part'], emit: (piece: string) => void): Steps<boolean> | undefined;
	putPrunerCommand(command: Extract<ClientCall, { method: 'putPrunerCommand' }>['command']): { readonly ok: true; readonly text: string } | { readonly ok: false; readonly error: string };
}

class Client {
	authenticated = false;

	constructor(readonly socket: Socket) {}

	/** Resolves when the socket has room again, or false when it closed or stayed full for `timeoutMs` (then it is closed). */
	drained(timeoutMs: number): Promise<boolean> {
		const socket = this.socket;
		return new Promise((resolve) => {
			const done = (drained: boolean): void => {
				clearTimeout(timer);
				socket.off('drain', onDrain).off('close', onClose);
				if (!drained) {
					socket.destroy();
				}
				resolve(drained);
			};
			const onDrain = (): void => done(true);
			const onClose = (): void => done(false);
			const timer = setTimeout(() => done(false), timeoutMs);
			socket.on('drain', onDrain).on('close', onClose);
		});
	}

	send(message: BridgeMessage): boolean {
		if (this.socket.destroyed) {
			return false;
		}
		if (this.socket.writableLength > MAX_BUFFERED_BYTES) {
			this.socket.destroy();
			return false;
		}
		this.socket.write(bridgeLine(message));
		return true;
	}
}

export class BridgeServer {
	/** Clients that gave the token. */
	private readonly clients = new Set<Client>();
	/** Connections that have not, oldest first. */
	private readonly pending = new Set<Client>();

	private constructor(
		private readonly server: Server,
		private readonly token: string,
		private readonly calls: BridgeCalls,
		private readonly helloTimeoutMs: number,
		private readonly drainTimeoutMs: number,
	) {}

	/** Listens on `socketPath`, readable and writable by its owner only. */
	static async listen(socketPath: string, token: string, calls: BridgeCalls, helloTimeoutMs = HELLO_TIMEOUT_MS, drainTimeoutMs = DRAIN_TIMEOUT_MS): Promise<BridgeServer> {
		const server = createServer({ allowHalfOpen: false });
		const bridge = new BridgeServer(server, token, calls, helloTimeoutMs, drainTimeoutMs);
		server.on('connection', (socket) => bridge.accept(socket));
		server.on('error', () => undefined);
		await new Promise<void>((resolve, reject) => {
			server.once('error', reject);
			server.listen(socketPath, () => {
				server.off('error', reject);
				resolve();
			});
		});
		if (process.platform !== 'win32') {
			await chmod(socketPath, 0o600);
		}
		return bridge;
	}

	/** Clients that gave the token. */
	get clientCount(): number {
		return this.clients.size;
	}

	broadcast(message: BridgeMessage): void {
		for (const client of this.clients) {
			client.send(message);
		}
	}

	/**
	 * Says goodbye and closes every connection; never holds Pi's quit: a client that does not close its end
	 * within a moment is cut off.
	 */
	async close(reason: string): Promise<void> {
		this.broadcast({ type: 'bye', reason });
		for (const client of this.pending) {
			client.socket.destroy();
		}
		for (const client of this.clients) {
			client.socket.end();
		}
		const cutOff = setTimeout(() => {
			for (const client of this.clients) {
				client.socket.destroy();
			}
		}, CLOSE_GRACE_MS);
		cutOff.unref();
		await new Promise<void>((resolve) => this.server.close(() => resolve()));
		clearTimeout(cutOff);
	}

	private accept(socket: Socket): void {
		socket.on('error', () => undefined);
		const [oldest] = this.pending;
		if (oldest && this.pending.size >= MAX_PENDING) {
			this.pending.delete(oldest);
			oldest.socket.destroy();
		}
		const client = new Client(socket);
		this.pending.add(client);
		const timer = setTimeout(() => socket.destroy(), this.helloTimeoutMs);
		timer.unref();
		socket.once('close', () => {
			clearTimeout(timer);
			this.pending.delete(client);
			this.clients.delete(client);
		});
		const reader = new LineReader(MAX_HELLO_CHARS, (line) => {
			if (!socket.destroyed) {
				this.onLine(client, line, reader, timer);
			}
		}, () => socket.destroy());
		socket.on('data', (chunk: Buffer) => reader.push(chunk));
	}

	private onLine(client: Client, line: string, reader: LineReader, timer: NodeJS.Timeout): void {
		const message = parseClientMessage(line);
		if (!client.authenticated) {
			// A ninth window is refused (it may try again when one closes).
			if (message?.type !== 'hello' || message.protocol !== BRIDGE_PROTOCOL || !tokensEqual(message.token, this.token) || this.clients.size >= MAX_CLIENTS) {
				client.socket.destroy();
				return;
			}
			clearTimeout(timer);
			this.pending.delete(client);
			this.clients.add(client);
			client.authenticated = true;
			reader.setLimit(MAX_CALL_CHARS);
			void this.calls.welcome().then(({ state, last }) => client.send({ type: 'welcome', protocol: BRIDGE_PROTOCOL, state, last }), () => client.socket.destroy());
			return;
		}
		if (message?.type !== 'call') {
			client.socket.destroy();
			return;
		}
		void this.answer(client, message).catch((error: unknown) => client.send({ type: 'result', id: message.id, ok: false, error: errorMessage(error) }));
	}

	private async answer(client: Client, call: Extract<ReturnType<typeof parseClientMessage>, { type: 'call' }>): Promise<void> {
		switch (call.method) {
			case 'state':
				client.send(resultOf(call, this.calls.state()));
				return;
			case 'lastRequest':
				client.send(resultOf(call, (await this.calls.lastRequest()) ?? null));
				return;
			case 'putPrunerCommand': {
				const put = this.calls.putPrunerCommand(call.command);
				client.send(put.ok ? resultOf(call, { text: put.text }) : { type: 'result', id: call.id, ok: false, error: put.error });
				return;
			}
			case 'requestText':
				await this.sendText(client, call.id, call.seq, call.part);
				return;
		}
		unreachable(call);
	}

	private async sendText(client: Client, id: number, seq: number, part: Extract<ClientCall, { method: 'requestText' }>['part']): Promise<void> {
		let pending = '';
		let total = 0;
		const steps = this.calls.text(seq, part, (piece) => {
			pending += piece;
			total += piece.length;
		});
		if (!steps) {
			client.send({ type: 'result', id, ok: false, error: 'that request is no longer one of the last few, or it has no such part' });
			return;
		}
		const flush = (all: boolean): void => {
			while (pending.length >= TEXT_CHUNK_CHARS || (all && pending.length > 0)) {
				client.send({ type: 'chunk', id, text: pending.slice(0, TEXT_CHUNK_CHARS) });
				pending = pending.slice(TEXT_CHUNK_CHARS);
			}
		};
		// Between two slices what was made goes out; a client that reads slowly is waited for.
		const betweenSlices = async (): Promise<void> => {
			if (total > MAX_PART_CHARS || client.socket.destroyed) {
				throw new WorkStopped('the text is no longer sent');
			}
			flush(false);
			if (client.socket.writableLength > TEXT_HIGH_WATER_BYTES) {
				// A client that reads nothing for the drain timeout is dropped (drained closes it).
				if (!await client.drained(this.drainTimeoutMs)) {
					throw new WorkStopped('the client stopped reading');
				}
			}
		};
		try {
			await this.calls.work.sliced(steps, undefined, { betweenSlices });
		} catch (error) {
			if (!isWorkStopped(error)) {
				throw error;
			}
			if (total <= MAX_PART_CHARS) {
				return; // the client left or stopped reading, or the bridge is stopping: no result for text cut short
			}
		}
		if (total > MAX_PART_CHARS) {
			client.send({ type: 'result', id, ok: false, error: `the ${part} are ${total} characters or more, more than the ${MAX_PART_CHARS} sent` });
			return;
		}
		flush(true);
		if (!client.socket.destroyed) {
			client.send(resultOf({ id, method: 'requestText' }, { chars: total }));
		}
	}
}
