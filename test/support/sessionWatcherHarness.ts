/**
 * A session watcher on real folders for unit tests: starts one per test, collects its events, and
 * checks after each test that it reported no error. Also the session lines the tests write.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { watchSessionFiles, type KnownFile, type SessionFileEvent, type SessionWatcher, type WatchedRoot } from '../../src/node/sessions/sessionWatcher';
import type { WorkScope } from '../../src/work';
import { EventLog } from './eventLog';
import { testScope } from './testWork';

type Appended = Extract<SessionFileEvent, { kind: 'appended' }>;

const line = (value: Record<string, unknown>): string => `${JSON.stringify(value)}\n`;
export const header = (version: number): string => line({ type: 'session', version, id: 'sess', timestamp: '2026-01-01T00:00:00.000Z', cwd: '/p' });
export const entry = (n: number): string => line({ type: 'custom', customType: 'test', id: `e${n}`, parentId: null, timestamp: '2026-01-01T00:00:00.000Z', data: { n, text: 'é✓😀'.repeat(n % 5) } });

/** Writes `content` to `path`, making its folders; returns the path. */
export function writeSession(path: string, content: string): string {
	mkdirSync(dirname(path), { recursive: true });
	writeFileSync(path, content);
	return path;
}

export interface WatcherHarness {
	/** Starts a watcher of `root` (closing the previous one's log), once its first listing is done. */
	readonly start: (root: WatchedRoot, knownFiles?: ReadonlyMap<string, KnownFile>) => Promise<SessionWatcher>;
	readonly log: EventLog<SessionFileEvent>;
	readonly watcher: SessionWatcher | undefined;
	readonly work: WorkScope | undefined;
	/** All `appended` bytes reported for `path` from `start` once they reach `end`, checked to be contiguous complete lines. */
	readonly appendedUntil: (path: string, start: number, end: number) => Promise<string>;
}

/** Registers the hooks (close the watcher, no errors reported) and returns the harness. */
export function useSessionWatcher(): WatcherHarness {
	let watcher: SessionWatcher | undefined;
	let work: WorkScope | undefined;
	let log = new EventLog<SessionFileEvent>();
	let errors: Error[] = [];

	afterEach(async () => {
		await work?.close();
		watcher = undefined;
		work = undefined;
		assert.deepEqual(errors.map((e) => e.message), []);
	});

	return {
		start: async (root, knownFiles) => {
			log = new EventLog();
			errors = [];
			work = testScope('watcher');
			watcher = watchSessionFiles({ work, roots: [root], onEvent: log.push, onError: (e) => errors.push(e), ...(knownFiles ? { knownFiles: Promise.resolve(knownFiles) } : {}) });
			await watcher.ready;
			return watcher;
		},
		get log() {
			return log;
		},
		get watcher() {
			return watcher;
		},
		get work() {
			return work;
		},
		appendedUntil: async (path, start, end) => {
			await log.waitFor((e) => e.kind === 'appended' && e.path === path && e.offset + e.bytes.length === end, `appended up to ${end}`);
			const events = log.events.filter((e): e is Appended => e.kind === 'appended' && e.path === path && e.offset >= start);
			let expected = start;
			for (const event of events) {
				assert.equal(event.offset, expected, 'appends are contiguous, nothing lost or repeated');
				assert.equal(event.bytes[event.bytes.length - 1], 0x0a, 'only complete lines are reported');
				expected += event.bytes.length;
			}
			return Buffer.concat(events.map((e) => e.bytes)).toString('utf8');
		},
	};
}
