/**
 * A large session made of a real one repeated with fresh ids, written at test time: repetition k
 * gets entry ids `<id><k in 4 hex digits>` and tool-call ids `<id>_<k>`, and its first entry hangs
 * under the previous repetition's last one, so the file is one long valid branch (the shape of
 * test/bench/make-big-session.py for a session without pi-condense entries). Lines are written as
 * Pi writes them, one `JSON.stringify` each.
 */
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { isPlainObject } from '../../src/base/plainObject';

type Json = Record<string, unknown>;

/** Writes `target` from `source` repeated until it reaches `targetBytes`; returns its entry count. */
export function writeRepeatedSession(source: string, target: string, targetBytes: number): number {
	const [headerLine = '', ...bodyLines] = readFileSync(source, 'utf8').split('\n').filter((line) => line.trim() !== '');
	const bodyBytes = bodyLines.reduce((sum, line) => sum + Buffer.byteLength(line) + 1, 0);
	const repetitions = Math.max(1, Math.floor(targetBytes / bodyBytes));
	const out = openSync(target, 'w');
	let entries = 0;
	try {
		writeSync(out, `${headerLine}\n`);
		let lastId: unknown = null;
		for (let k = 0; k < repetitions; k++) {
			const suffix = k.toString(16).padStart(4, '0');
			const ids = new Map<unknown, string>();
			const chunk: string[] = [];
			for (const line of bodyLines) {
				const entry = JSON.parse(line) as Json;
				if (typeof entry['id'] === 'string') {
					ids.set(entry['id'], `${entry['id']}${suffix}`);
					entry['id'] = ids.get(entry['id']);
				}
				entry['parentId'] = entry['parentId'] === null || entry['parentId'] === undefined ? lastId : ids.get(entry['parentId']) ?? entry['parentId'];
				for (const key of ['firstKeptEntryId', 'targetId']) {
					if (ids.has(entry[key])) {
						entry[key] = ids.get(entry[key]);
					}
				}
				renameCallIds(entry['message'], k);
				chunk.push(JSON.stringify(entry));
				lastId = entry['id'] ?? lastId;
				entries++;
			}
			writeSync(out, `${chunk.join('\n')}\n`);
		}
	} finally {
		closeSync(out);
	}
	return entries;
}

function renameCallIds(message: unknown, k: number): void {
	if (!isPlainObject(message)) {
		return;
	}
	if (message['role'] === 'assistant' && Array.isArray(message['content'])) {
		for (const block of message['content'] as unknown[]) {
			if (isPlainObject(block) && block['type'] === 'toolCall') {
				block['id'] = `${String(block['id'])}_${k}`;
			}
		}
	}
	if (message['role'] === 'toolResult' && 'toolCallId' in message) {
		message['toolCallId'] = `${String(message['toolCallId'])}_${k}`;
	}
}
