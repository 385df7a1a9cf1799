/**
 * Megabytes of real pi-condense lines to append to a session in one go, as a first flush writes
 * them (or as Pi leaves them after a long run): the body of the `large-bulk` session repeated
 * `copies` times with fresh ids, chained under `parentId`. Also counts the event loop's turns while
 * work runs, to check that reading them lets other work in.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { piCondenseSessionsDir } from './paths';

export function bulkLinesAfter(parentId: string | null, copies = 6): Buffer {
	const lines = readFileSync(join(piCondenseSessionsDir, 'large-bulk', 'session.jsonl'), 'utf8').split('\n').filter(Boolean).slice(1);
	let parent = parentId;
	const copiesList = Array.from({ length: copies }, (_, copy) => copy + 1);
	return Buffer.from(copiesList.flatMap((copy) => lines.map((line) => {
		const entry = JSON.parse(line) as Record<string, unknown>;
		entry['id'] = `${String(entry['id'])}-${copy}`;
		entry['parentId'] = parent;
		parent = entry['id'] as string;
		return `${JSON.stringify(entry)}\n`;
	})).join(''));
}

/** `work`'s result and how many times the event loop turned while it ran. */
export async function countingTurns<T>(work: () => Promise<T>): Promise<{ result: T; turns: number }> {
	let turns = 0;
	const counting = setInterval(() => turns++, 0);
	try {
		return { result: await work(), turns };
	} finally {
		clearInterval(counting);
	}
}
