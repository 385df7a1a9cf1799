/**
 * The attacker's server for the hostile-session tests: a real TCP server on 127.0.0.1 that records
 * every connection made to it. Session text points images and links at `https://127.0.0.1:<port>`
 * (an attacker serves https, which the workbench's and the markdown preview's content policies let
 * images load from); a browser fetching one connects here before any TLS or HTTP is exchanged, so
 * a connection is a request attempt. The tests assert there was none.
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface AttackerServer {
	/** `https://127.0.0.1:<port>` */
	readonly url: string;
	/** One entry per connection: the first bytes it sent (a TLS ClientHello, or an HTTP request line). */
	readonly connections: readonly string[];
	close(): Promise<void>;
}

export async function startAttackerServer(): Promise<AttackerServer> {
	const connections: string[] = [];
	const sockets = new Set<Socket>();
	const server: Server = createServer((socket) => {
		sockets.add(socket);
		const index = connections.push('(connected)') - 1;
		socket.once('data', (chunk: Buffer) => {
			connections[index] = chunk.subarray(0, 60).toString('latin1').replace(/[^\x20-\x7e]/g, '.');
			socket.destroy();
		});
		socket.on('close', () => sockets.delete(socket));
		socket.on('error', () => undefined);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
		connections,
		close: () => new Promise((resolve) => {
			for (const socket of sockets) {
				socket.destroy();
			}
			server.close(() => resolve());
		}),
	};
}
