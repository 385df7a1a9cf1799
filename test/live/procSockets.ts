/**
 * The listening sockets a process holds, read from Linux's /proc: its descriptors' socket inodes
 * matched against the kernel's tables of TCP (v4 and v6) and Unix sockets in its network namespace.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

function socketInodes(pid: number): Set<string> {
	const inodes = new Set<string>();
	for (const fd of readdirSync(`/proc/${pid}/fd`)) {
		try {
			const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
			const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
			if (inode !== undefined) {
				inodes.add(inode);
			}
		} catch {
			// Closed between the listing and the read.
		}
	}
	return inodes;
}

function tableRows(path: string): string[][] {
	try {
		return readFileSync(path, 'utf8').trim().split('\n').slice(1).map((line) => line.trim().split(/\s+/));
	} catch {
		return [];
	}
}

/** TCP sockets in state LISTEN (0A) held by the process: `local address:port` in the kernel's hex. */
export function tcpListenersOf(pid: number): string[] {
	const held = socketInodes(pid);
	return ['tcp', 'tcp6'].flatMap((table) => tableRows(`/proc/${pid}/net/${table}`)
		.filter((row) => row[3] === '0A' && held.has(row[9] ?? ''))
		.map((row) => `${table} ${row[1]}`));
}

/** Paths of the Unix sockets the process listens on (flag __SO_ACCEPTCON). */
export function unixListenersOf(pid: number): string[] {
	const held = socketInodes(pid);
	return tableRows(`/proc/${pid}/net/unix`)
		.filter((row) => row[3] === '00010000' && held.has(row[6] ?? '') && row[7] !== undefined)
		.map((row) => row[7] as string);
}
