/**
 * What the history index's tests share: an agent dir of session files to index, an index opened on
 * a temporary file (on this Node's engine, or a chosen one), and the session lines they write.
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HistoryIndex } from '../../../src/node/history/historyIndex';
import type { IndexNotice } from '../../../src/node/history/indexDatabase';
import type { SqlEngineChoice } from '../../../src/node/history/sqlite/openSqlite';
import type { SessionRoot } from '../../../src/node/sessions/sessionLocations';
import { repoRoot } from '../paths';
import { testWork } from '../testWork';

export const distDir = join(repoRoot, 'dist');

export interface OpenedIndex {
	readonly index: HistoryIndex;
	readonly notices: IndexNotice[];
}

/** How a test index extracts: on this thread (the default), or in one or two extraction threads from the first byte. */
export type Extraction = 'here' | 'threads' | 'two threads';

export async function openTestIndex(path: string, engine: SqlEngineChoice = 'auto', ownFolder = false, extraction: Extraction = 'here'): Promise<{ index: HistoryIndex | undefined; notices: IndexNotice[] }> {
	const notices: IndexNotice[] = [];
	const threads = extraction === 'here' ? { extractionThreads: 0 } : { extractionThreads: extraction === 'threads' ? 1 : 2, threadsFromBytes: 0 };
	const index = await HistoryIndex.open({ path, ownFolder, engine, distDir, slices: testWork, notify: (notice) => notices.push(notice), batchBytes: 64 * 1024, ...threads });
	return { index, notices };
}

/** The per-project sessions folder of an agent dir. */
export function sessionsRoot(agentDir: string): SessionRoot {
	return { path: join(agentDir, 'sessions'), layout: 'per-project', source: 'default' };
}

export const line = (value: Record<string, unknown>): string => `${JSON.stringify(value)}\n`;

export function headerLine(id: string, cwd = '/work/p'): string {
	return line({ type: 'session', version: 3, id, timestamp: '2026-01-01T00:00:00.000Z', cwd });
}

export function userLine(id: string, text: string, timestamp: number): string {
	return line({ type: 'message', id, parentId: null, timestamp: new Date(timestamp).toISOString(), message: { role: 'user', content: [{ type: 'text', text }], timestamp } });
}

export function assistantLine(id: string, text: string, timestamp: number, tokens = 10): string {
	return line({
		type: 'message', id, parentId: null, timestamp: new Date(timestamp).toISOString(),
		message: { role: 'assistant', content: [{ type: 'text', text }], provider: 'anthropic', model: 'claude-sonnet-4-5', usage: { input: tokens, output: tokens, cacheRead: 0, cacheWrite: 0, totalTokens: 2 * tokens, cost: { total: tokens / 1000 } }, stopReason: 'stop', timestamp },
	});
}

/** Writes a session file in project folder `project` of `agentDir`; returns its path. */
export function writeSession(agentDir: string, project: string, name: string, text: string): string {
	const folder = join(agentDir, 'sessions', `--${project}--`);
	mkdirSync(folder, { recursive: true });
	const path = join(folder, name);
	writeFileSync(path, text);
	return path;
}

export function append(path: string, text: string): void {
	appendFileSync(path, text);
}
