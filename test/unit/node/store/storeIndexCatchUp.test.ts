/**
 * A session that appears or grows while the session index's build runs: the store lists it at once
 * (read from its file, the index does not answer yet), and the index has it once the build is done,
 * though the build listed the folders before the file was there and no later event comes. Real
 * files, a real index on its thread, the real watcher; the index's cross-process lock is held by the
 * test to keep the build from ending while the file appears.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { lock } from 'proper-lockfile';
import { nullLogger } from '../../../../src/engine/ports';
import { resolveSessionLocations } from '../../../../src/node/sessions/sessionLocations';
import { SessionStore, type StoreChange } from '../../../../src/node/store/sessionStore';
import type { WorkScope } from '../../../../src/work';
import { EventLog, pause } from '../../../support/eventLog';
import { append, distDir, headerLine, userLine, writeSession } from '../../../support/history/indexKit';
import { useTempDir } from '../../../support/tempDirs';
import { testScope } from '../../../support/testWork';

/** Polls `condition` (the deadline only turns a wait that never ends into a clear failure). */
async function until(condition: () => boolean | Promise<boolean>, what: string, deadlineMs = 20_000): Promise<void> {
	const end = Date.now() + deadlineMs;
	while (!await condition()) {
		if (Date.now() > end) {
			throw new Error(`gave up waiting: ${what}`);
		}
		await pause(20);
	}
}

describe('SessionStore with the session index: changes while the build runs', function () {
	this.timeout(90_000);
	const temp = useTempDir('store-index-catch-up');
	let work: WorkScope | undefined;

	afterEach(async () => {
		await work?.close();
		work = undefined;
	});

	/**
	 * Six sessions of 150 lines in two projects, and a store with an index of small write batches (the build takes
	 * its lock many times, and a test takes it between two), started until its build reads.
	 */
	async function storeBuilding(): Promise<{ agent: string; paths: string[]; db: string; store: SessionStore; log: EventLog<StoreChange> }> {
		const agent = join(temp(), 'agent');
		const paths = Array.from({ length: 6 }, (_, n) => writeSession(agent, `p${n % 2}`, `s${n}.jsonl`, headerLine(`session-${n}`)
			+ Array.from({ length: 150 }, (_, i) => userLine(`u${i}`, `words of session ${n}, line ${i}`, 1_000 + i)).join('')));
		mkdirSync(join(temp(), 'index'));
		const db = join(temp(), 'index', 'i.sqlite');
		const log = new EventLog<StoreChange>();
		work = testScope('store');
		const store = new SessionStore({
			work, logger: nullLogger, projectSettingsAllowed: () => true,
			locate: () => resolveSessionLocations({ agentDir: agent, env: {}, homedir: agent }),
			sessionIndex: () => ({ path: db, ownFolder: false, distDir, batchBytes: 512, notify: () => undefined }),
		});
		store.onDidChange(log.push);
		await store.start();
		await log.waitFor((change) => change.kind === 'index' && change.state.kind === 'building', 'the build reading');
		return { agent, paths, db, store, log };
	}

	/** Takes the index's cross-process lock (the build waits for it meanwhile). */
	const lockIndex = (db: string): Promise<() => Promise<void>> => lock(db, { lockfilePath: `${db}.mutex`, realpath: false, retries: { retries: 5000, minTimeout: 1, maxTimeout: 2 } });

	it('brings a session made, and one grown, while the build runs into the index once it is done', async () => {
		const { agent, paths, db, store, log } = await storeBuilding();
		const grown = paths[0] ?? '';
		const release = await lockIndex(db);
		let made: string;
		try {
			assert.equal(store.sessionIndex?.state.kind, 'building', 'the build has listed the folders and still runs');
			made = writeSession(agent, 'late', 'late.jsonl', headerLine('late') + userLine('u1', 'a zebracorn appears', 9_000));
			append(grown, userLine('u999', 'a quokkafish appears', 9_500));
			await until(() => store.row(made)?.summary?.summary.messageCount === 1, 'the new session listed, read from its file');
			await until(() => store.row(grown)?.summary?.summary.messageCount === 151, 'the grown session read from its file');
			assert.equal(store.sessionIndex?.state.kind, 'building', 'both changes came while the build ran');
		} finally {
			await release();
		}
		await log.waitFor((change) => change.kind === 'index' && change.state.kind === 'ready', 'the build done');
		const found = async (word: string): Promise<readonly string[]> => ((await store.sessionIndex?.search(word, {})) ?? []).map((hit) => hit.path);
		await until(async () => (await found('zebracorn')).includes(made), 'the index finding the new session');
		await until(async () => (await found('quokkafish')).includes(grown), 'the index finding the grown session\'s new line');
	});

	it('lists the sessions a cancelled build did not reach, and brings a line appended to one into the index, though nobody asked for its summary', async () => {
		const { paths, db, store, log } = await storeBuilding();
		// The build waits for its lock while it is cancelled: it stops with files left unread.
		const release = await lockIndex(db);
		try {
			store.sessionIndex?.cancelBuild();
		} finally {
			await release();
		}
		await log.waitFor((change) => change.kind === 'index' && change.state.kind === 'stopped', 'the build stopped');
		// Every session is listed, those the build did not reach from their files, with no summary (nobody asks).
		await until(() => paths.every((path) => store.row(path) !== undefined), 'every session listed');
		const unread = paths.find((path) => store.row(path)?.summary === undefined);
		assert.ok(unread, 'a session the build left unread, with no summary');
		append(unread, userLine('u999', 'a wombatross appears', 9_500));
		const found = async (word: string): Promise<readonly string[]> => ((await store.sessionIndex?.search(word, {})) ?? []).map((hit) => hit.path);
		await until(async () => (await found('wombatross')).includes(unread), 'the index finding the appended line');
	});
});
