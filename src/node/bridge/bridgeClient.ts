/**
 * VS Code's end of one bridge connection: connects to the record's socket, says the token first,
 * and is open once the bridge welcomes it. Then it follows the bridge's state and request digests,
 * and makes the calls the protocol allows. Every line from the socket is parsed as hostile; a line
 * that is not a protocol message, or longer than the limit, closes the connection.
 */
import { createConnection, type Socket } from 'node:net';
import {
	BRIDGE_PROTOCOL, type BridgeMessage, type BridgeMethod, type BridgeRecord, type BridgeResults, type BridgeState, type ClientCall, clientLine, MAX_LINE_CHARS,
	MAX_PART_CHARS, parseBridgeMessage, type PrunerSubcommand, RESULT_READERS, type SentDigest, type SentPart,
} from '../../engine/live';
import { errorMessage } from '../../base/errorMessage';
import { Emitter } from '../../base/emitter';
import { LineReader } from './lineReader';

export const CONNECT_TIMEOUT_MS = 3000;
export const CALL_TIMEOUT_MS = 10_000;

/** A call answered by the bridge: its raw value, read by its method's reader (`RESULT_READERS`). */
interface PendingCall {
	readonly resolve: (value: unknown) => void;
	readonly reject: (error: Error) => void;
	readonly chunks?: string[];
	received: number;
	readonly timer: NodeJS.Timeout;
}

export class BridgeClient {
	private readonly _onState = new Emitter<BridgeState>();
	private readonly _onSent = new Emitter<SentDigest>();
	private readonly _onClose = new Emitter<string>();
	/** The bridge's state, newest first seen. */
	readonly onState = this._onState.event;
	/** A digest of each model request Pi makes. */
	readonly onSent = this._onSent.event;
	/** Fires once, with why. */
	readonly onClose = this._onClose.event;
	private readonly calls = new Map<number, PendingCall>();
	private nextId = 1;
	private closedBecause: string | undefined;

	private constructor(private readonly socket: Socket, readonly record: BridgeRecord, public state: BridgeState, public last: SentDigest | undefined) {}

	/** Opens a connection; rejects when the bridge does not welcome it in time. */
	static connect(record: BridgeRecord, timeoutMs = CONNECT_TIMEOUT_MS): Promise<BridgeClient> {
		return new Promise<BridgeClient>((resolve, reject) => {
			const socket = createConnection(record.socket);
			let client: BridgeClient | undefined;
			const fail = (why: string): void => {
				clearTimeout(timer);
				socket.destroy();
				if (client) {
					client.closed(why);
				} else {
					reject(new Error(why));
				}
			};
			const timer = setTimeout(() => fail(`no welcome from the bridge of pid ${record.pid} within ${timeoutMs} ms`), timeoutMs);
			const reader = new LineReader(MAX_LINE_CHARS, (line) => {
				const message = parseBridgeMessage(line);
				if (!message) {
					fail(`the bridge of pid ${record.pid} sent a line that is not part of the protocol`);
				} else if (client) {
					client.receive(message);
				} else if (message.type === 'welcome' && message.protocol === BRIDGE_PROTOCOL) {
					clearTimeout(timer);
					client = new BridgeClient(socket, record, message.state, message.last);
					resolve(client);
				} else {
					fail(`the bridge of pid ${record.pid} did not welcome the connection`);
				}
			}, () => fail(`the bridge of pid ${record.pid} sent a line longer than ${MAX_LINE_CHARS} characters`));
			socket.on('data', (chunk: Buffer) => reader.push(chunk));
			socket.on('error', (error) => fail(errorMessage(error)));
			socket.on('close', () => fail(client ? 'the bridge closed the connection' : `the bridge of pid ${record.pid} closed the connection (wrong token?)`));
			socket.once('connect', () => socket.write(clientLine({ type: 'hello', protocol: BRIDGE_PROTOCOL, token: record.token })));
		});
	}

	get isClosed(): boolean {
		return this.closedBecause !== undefined;
	}

	/** The bridge's current state, asked for. */
	refreshState(): Promise<BridgeState> {
		return this.call({ method: 'state' });
	}

	async lastRequest(): Promise<SentDigest | undefined> {
		return (await this.call({ method: 'lastRequest' })) ?? undefined;
	}

	/** The exact JSON text of a part of request `seq`, put together from its chunks. */
	async requestText(seq: number, part: SentPart, timeoutMs = CALL_TIMEOUT_MS * 6): Promise<string> {
		const chunks: string[] = [];
		const result = await this.call({ method: 'requestText', seq, part }, timeoutMs, chunks);
		const text = chunks.join('');
		if (result.chars !== text.length) {
			throw new Error(`the bridge's text of the ${part} is incomplete`);
		}
		return text;
	}

	/** Puts `/pruner <command>` into Pi's editor (Pi's user presses Enter); returns the text put. */
	async putPrunerCommand(command: PrunerSubcommand): Promise<string> {
		return (await this.call({ method: 'putPrunerCommand', command })).text;
	}

	close(): void {
		this.socket.destroy();
		this.closed('closed by VS Code');
	}

	/** Makes a call and reads its result as its method's (`BridgeResults`): anything else rejects. */
	private async call<M extends BridgeMethod>(call: Extract<ClientCall, { method: M }>, timeoutMs = CALL_TIMEOUT_MS, chunks?: string[]): Promise<BridgeResults[M]> {
		const value = await this.send(call, timeoutMs, chunks);
		const read: BridgeResults[M] | undefined = (RESULT_READERS[call.method] as (value: unknown) => BridgeResults[M] | undefined)(value);
		if (read === undefined) {
			throw new Error(`the bridge answered ${call.method} with something that is not its result`);
		}
		return read;
	}

	private send(call: ClientCall, timeoutMs: number, chunks: string[] | undefined): Promise<unknown> {
		if (this.closedBecause !== undefined) {
			return Promise.reject(new Error(`the bridge connection is closed: ${this.closedBecause}`));
		}
		const id = this.nextId++;
		return new Promise<unknown>((resolve, reject) => {
			const timer = setTimeout(() => {
				this.calls.delete(id);
				reject(new Error(`the bridge did not answer ${call.method} within ${timeoutMs} ms`));
			}, timeoutMs);
			this.calls.set(id, { resolve, reject, chunks, received: 0, timer });
			this.socket.write(clientLine({ type: 'call', id, ...call }));
		});
	}

	private receive(message: BridgeMessage): void {
		switch (message.type) {
			case 'state':
				this.state = message.state;
				this._onState.fire(message.state);
				return;
			case 'sent':
				this.last = message.sent;
				this._onSent.fire(message.sent);
				return;
			case 'chunk': {
				const pending = this.calls.get(message.id);
				if (pending?.chunks) {
					pending.chunks.push(message.text);
					pending.received += message.text.length;
					if (pending.received > MAX_PART_CHARS) {
						this.calls.delete(message.id);
						clearTimeout(pending.timer);
						pending.reject(new Error(`the bridge sent more than ${MAX_PART_CHARS} characters`));
					}
				}
				return;
			}
			case 'result': {
				const pending = this.calls.get(message.id);
				if (pending) {
					this.calls.delete(message.id);
					clearTimeout(pending.timer);
					if (message.ok) {
						pending.resolve(message.value);
					} else {
						pending.reject(new Error(message.error));
					}
				}
				return;
			}
			case 'bye':
				this.socket.end();
				this.closed(`the bridge said goodbye: ${message.reason}`);
				return;
			case 'welcome':
				return;
		}
	}

	private closed(why: string): void {
		if (this.closedBecause !== undefined) {
			return;
		}
		this.closedBecause = why;
		for (const pending of this.calls.values()) {
			clearTimeout(pending.timer);
			pending.reject(new Error(`the bridge connection closed: ${why}`));
		}
		this.calls.clear();
		this._onClose.fire(why);
		this._onState.dispose();
		this._onSent.dispose();
		this._onClose.dispose();
	}
}
