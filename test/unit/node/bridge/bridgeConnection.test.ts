/**
 * The bridge's endpoint and VS Code's client over a real Unix socket: only the record's token opens
 * a connection (a wrong one, a late one, garbage or an overlong first line is closed without a
 * word), the socket is 0600, and the calls of the protocol work: state, the exact text of a part
 * in chunks, the pruner command. Idle connections that never give the token cannot lock VS Code
 * out, and a client that stops reading an exact text is dropped instead of waited for.
 */
import assert from 'node:assert/strict';
import { lstatSync, mkdirSync } from 'node:fs';
import { createConnection, type Socket } from 'node:net';
import { join } from 'node:path';
import { BridgeServer, type BridgeCalls } from '../../../../bridge/bridgeServer';
import { TEXT_CHUNK_CHARS } from '../../../../src/engine/live/bridgeMessages';
import type { BridgeRecord } from '../../../../src/engine/live/bridgeRecord';
import { jsonPiecesSteps } from '../../../../src/engine/live/jsonPieces';
import type { BridgeState, SentDigest } from '../../../../src/engine/live/liveTypes';
import { BridgeClient } from '../../../../src/node/bridge/bridgeClient';
import { newToken } from '../../../../src/node/bridge/bridgeToken';
import { newSocketPath } from '../../../../src/node/bridge/recordFiles';
import { useTempDir } from '../../../support/tempDirs';
import { testWork } from '../../../support/testWork';

const state: BridgeState = {
	pid: process.pid, piVersion: '1.6.0', mode: 'rpc', cwd: '/p', sessionFile: '/p/s.jsonl', sessionId: 'id', leafId: 'a1', model: undefined,
	thinkingLevel: 'off', busy: false, usage: undefined, piCondense: undefined, order: 'no-pi-condense', bridgeVersion: '0.1.0',
};
const payload = { model: 'm', messages: Array.from({ length: 40 }, (_, i) => ({ role: 'user', content: `${i} ${'x'.repeat(9000)}` })), stream: true };
const sent: SentDigest = { seq: 1, at: 1, sessionFile: '/p/s.jsonl', leafId: 'a1', model: undefined, messages: [], system: undefined, payload: undefined, changedAfterBridge: 0 };

class Calls implements BridgeCalls {
	readonly puts: string[] = [];
	readonly work = testWork;

	/** `textBytes`: a payload text of about that size instead of the small one. */
	constructor(private readonly textBytes?: number) {}

	welcome(): Promise<{ state: BridgeState; last: SentDigest | undefined }> {
		return Promise.resolve({ state, last: sent });
	}
	state(): BridgeState {
		return state;
	}
	lastRequest(): Promise<SentDigest | undefined> {
		return Promise.resolve(sent);
	}
	text(seq: number, part: 'messages' | 'system' | 'payload', emit: (piece: string) => void): ReturnType<BridgeCalls['text']> {
		const text = this.textBytes === undefined ? payload : { messages: Array.from({ length: Math.ceil(this.textBytes / 10_000) }, (_, i) => `${i} ${'y'.repeat(10_000)}`) };
		return seq === 1 && part === 'payload' ? (function* () {
			yield* jsonPiecesSteps(text, emit, { depth: 3 });
			return true;
		})() : undefined;
	}
	putPrunerCommand(command: 'now' | 'compact'): ReturnType<BridgeCalls['putPrunerCommand']> {
		this.puts.push(command);
		return { ok: true, text: `/pruner ${command}` };
	}
}

/** What a raw connection gets before the bridge closes it, after sending `lines`. */
function rawExchange(socket: string, lines: string): Promise<string> {
	return new Promise((resolve) => {
		const connection = createConnection(socket);
		let received = '';
		connection.on('data', (chunk) => (received += chunk.toString()));
		connection.on('error', () => undefined);
		connection.on('close', () => resolve(received));
		connection.on('connect', () => connection.write(lines));
	});
}

/** A connection that never says anything; `closed` resolves when the bridge closes it. */
async function idleConnection(path: string): Promise<{ readonly socket: Socket; readonly closed: Promise<void> }> {
	const socket = createConnection(path);
	socket.on('error', () => undefined);
	const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
	await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
	return { socket, closed };
}

describe('the bridge\'s socket', () => {
	const temp = useTempDir('pi-condense-socket');
	let server: BridgeServer | undefined;
	let record: BridgeRecord;
	let calls: Calls;

	beforeEach(async () => {
		const folder = join(temp(), 'f');
		mkdirSync(folder, { mode: 0o700 });
		calls = new Calls();
		const token = newToken();
		const socket = newSocketPath(folder, process.pid);
		// The bridge's own hello timeout: only the case about it sets a short one.
		server = await BridgeServer.listen(socket, token, calls);
		record = { protocol: 1, pid: process.pid, socket, token, piVersion: '1.6.0', cwd: '/p', sessionFile: '/p/s.jsonl', startedAt: 1 };
	});
	afterEach(async () => {
		await server?.close('test over');
		server = undefined;
	});

	it('is a socket only its owner may open', () => {
		const stats = lstatSync(record.socket);
		assert.ok(stats.isSocket());
		assert.equal(stats.mode & 0o777, 0o600);
	});

	it('welcomes the record\'s token and answers the protocol\'s calls', async () => {
		const client = await BridgeClient.connect(record);
		try {
			assert.deepEqual(client.state, state);
			assert.deepEqual(client.last, sent);
			assert.equal(server?.clientCount, 1);
			assert.deepEqual(await client.refreshState(), state);
			const text = await client.requestText(1, 'payload');
			assert.equal(text, JSON.stringify(payload));
			assert.ok(text.length > 5 * TEXT_CHUNK_CHARS);
			await assert.rejects(client.requestText(2, 'payload'), /no longer one of the last few/);
			assert.equal(await client.putPrunerCommand('now'), '/pruner now');
			assert.deepEqual(calls.puts, ['now']);
		} finally {
			client.close();
		}
	});

	it('closes a connection with a wrong token, without a word', async () => {
		await assert.rejects(BridgeClient.connect({ ...record, token: newToken() }), /closed the connection \(wrong token\?\)/);
		assert.equal(await rawExchange(record.socket, `${JSON.stringify({ type: 'hello', protocol: 1, token: 'guess' })}\n`), '');
		assert.deepEqual(calls.puts, []);
	});

	it('closes a connection that sends anything else first, too much, or nothing in time', async () => {
		const call = JSON.stringify({ type: 'call', id: 1, method: 'putPrunerCommand', command: 'now' });
		assert.equal(await rawExchange(record.socket, `${call}\n`), '');
		assert.equal(await rawExchange(record.socket, 'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'), '');
		assert.equal(await rawExchange(record.socket, 'x'.repeat(10_000)), '');
		await server?.close('replaced');
		server = await BridgeServer.listen(record.socket, record.token, calls, 300);
		const started = Date.now();
		assert.equal(await rawExchange(record.socket, ''), '');
		assert.ok(Date.now() - started >= 250, 'closed by the hello timeout');
		assert.deepEqual(calls.puts, []);
	});

	it('welcomes a VS Code whose hello comes late (its extension host busy for a while)', async () => {
		const received = await new Promise<string>((resolve) => {
			const connection = createConnection(record.socket);
			let text = '';
			connection.on('error', () => undefined);
			connection.on('data', (chunk) => {
				text += chunk.toString();
				if (text.includes('\n')) {
					connection.destroy();
					resolve(text);
				}
			});
			connection.on('close', () => resolve(text));
			connection.on('connect', () => setTimeout(() => connection.write(`${JSON.stringify({ type: 'hello', protocol: 1, token: record.token })}\n`), 1500));
		});
		assert.match(received, /^\{"type":"welcome"/);
	});

	it('closes an authenticated connection that sends a line outside the protocol', async () => {
		const received = await new Promise<string>((resolve) => {
			const connection = createConnection(record.socket);
			let text = '';
			connection.on('data', (chunk) => {
				text += chunk.toString();
				if (text.includes('\n')) {
					connection.write(`${JSON.stringify({ type: 'call', id: 1, method: 'sendUserMessage', text: 'hi' })}\n`);
				}
			});
			connection.on('close', () => resolve(text));
			connection.on('connect', () => connection.write(`${JSON.stringify({ type: 'hello', protocol: 1, token: record.token })}\n`));
		});
		assert.match(received, /^\{"type":"welcome"/);
		assert.equal(received.trim().split('\n').length, 1);
	});

	it('does not let idle connections that never give the token lock VS Code out', async () => {
		await server?.close('replaced');
		// Idle connections are not timed out during this test: only the separate pool keeps room for VS Code.
		server = await BridgeServer.listen(record.socket, record.token, calls, 600_000);
		const idle = await Promise.all(Array.from({ length: 12 }, () => idleConnection(record.socket)));
		const client = await BridgeClient.connect(record);
		try {
			assert.equal(server.clientCount, 1);
			// The oldest idle ones were closed to make room (the first eight, then the ninth for VS Code's).
			await Promise.all(idle.slice(0, 9).map((connection) => connection.closed));
			// More idle connections never close a window that gave the token.
			const more = await Promise.all(Array.from({ length: 12 }, () => idleConnection(record.socket)));
			assert.deepEqual(await client.refreshState(), state);
			for (const connection of [...idle, ...more]) {
				connection.socket.destroy();
			}
		} finally {
			client.close();
		}
	});

	it('drops a client that stops reading an exact text instead of waiting for it without end', async () => {
		await server?.close('replaced');
		const big = new Calls(8 * 1024 * 1024);
		server = await BridgeServer.listen(record.socket, record.token, big, undefined, 200);
		const reader = createConnection(record.socket);
		reader.on('error', () => undefined);
		await new Promise<void>((resolve) => {
			let text = '';
			const onData = (chunk: Buffer): void => {
				text += chunk.toString();
				if (text.includes('\n')) {
					reader.off('data', onData);
					// Asks for 8 MB of text, then reads nothing more.
					reader.pause();
					reader.write(`${JSON.stringify({ type: 'call', id: 1, method: 'requestText', seq: 1, part: 'payload' })}\n`);
					resolve();
				}
			};
			reader.on('data', onData);
			reader.once('connect', () => reader.write(`${JSON.stringify({ type: 'hello', protocol: 1, token: record.token })}\n`));
		});
		assert.equal(server.clientCount, 1);
		while (server.clientCount > 0) {
			await new Promise((resolve) => setTimeout(resolve, 20));
		}
		reader.destroy();
	});

	it('stops without waiting for a client that keeps its end open (Pi\'s quit is never held)', async () => {
		const held = createConnection({ path: record.socket, allowHalfOpen: true });
		held.on('error', () => undefined);
		let received = '';
		held.on('data', (chunk) => (received += chunk.toString()));
		await new Promise<void>((resolve) => held.once('connect', () => resolve()));
		held.write(`${JSON.stringify({ type: 'hello', protocol: 1, token: record.token })}\n`);
		await new Promise<void>((resolve) => {
			held.on('data', () => {
				if (received.includes('\n')) {
					resolve();
				}
			});
		});
		// The client never closes its end: without the cut-off, close() would wait for ever (the test's timeout says so).
		await server?.close('Pi quit');
		server = undefined;
		assert.equal(held.writableEnded, false, 'the client did not close its end: the bridge cut it off');
		assert.match(received, /"type":"bye","reason":"Pi quit"/);
		held.destroy();
	});
});
