/**
 * Symbolic links in Pi's sessions folder, on real folders with real links: the discovery, the session
 * index's scan and the session watcher list what Pi 1.6.0's own listing (`SessionManager.listAll`)
 * lists, no more and no less. Pi follows a linked project folder and a linked `*.jsonl` file wherever
 * they point, so we do too; a link to nothing, or to something that is not a regular file, is not a
 * session. A FIFO named `*.jsonl` is skipped without waiting for a writer.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdirSync, openSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { discoverSessions } from '../../../../src/node/sessions/discoverSessions';
import { header, useSessionWatcher, writeSession } from '../../../support/sessionWatcherHarness';
import { openTestIndex, sessionsRoot } from '../../../support/history/indexKit';
import { listAllWithPi16 } from '../../../support/pi16';
import { useTempDir } from '../../../support/tempDirs';

describe('symbolic links in the sessions folder: the discovery, the index and the watcher list what Pi lists', function () {
	this.timeout(60_000);
	const temp = useTempDir('symlinked-sessions');
	const harness = useSessionWatcher();
	const fifos: string[] = [];

	afterEach(() => {
		// A reader left waiting on a FIFO (the fault this covers) is let go, so the process can end.
		for (const fifo of fifos.splice(0)) {
			try {
				closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
			} catch {
				// no reader waits
			}
		}
	});

	/** What each of ours lists under the agent dir's sessions folder, sorted. */
	async function ours(agentDir: string, candidates: readonly string[]): Promise<{ discovery: string[]; index: string[]; watcher: string[] }> {
		const root = sessionsRoot(agentDir);
		const discovery = (await discoverSessions([root])).sessions.map((session) => session.path).sort();
		const { index } = await openTestIndex(join(temp(), 'index.sqlite'));
		assert.ok(index);
		let indexed: string[];
		try {
			await index.refresh([root]);
			indexed = (await index.stored([root])).map((row) => row.path).sort();
		} finally {
			await index.close();
		}
		const watcher = await harness.start({ path: root.path, layout: 'per-project' });
		return { discovery, index: indexed, watcher: candidates.filter((path) => watcher.consumedOffset(path) !== undefined).sort() };
	}

	it('follows a linked project folder and a linked session file, as Pi 1.6.0 does, and nothing else', async () => {
		const agentDir = join(temp(), 'agent');
		const sessions = join(agentDir, 'sessions');
		const outside = join(temp(), 'elsewhere');
		const plain = writeSession(join(sessions, '--plain--', 'a.jsonl'), header(3));
		writeSession(join(outside, 'project', 'b.jsonl'), header(3));
		const realFile = writeSession(join(outside, 'c.jsonl'), header(3));
		writeSession(join(outside, 'loose.jsonl'), header(3));
		symlinkSync(join(outside, 'project'), join(sessions, '--linked-project--'), 'dir');
		symlinkSync(realFile, join(sessions, '--plain--', 'linked.jsonl'));
		symlinkSync(join(outside, 'nothing.jsonl'), join(sessions, '--plain--', 'dangling.jsonl'));
		symlinkSync(join(outside, 'project'), join(sessions, '--plain--', 'folder.jsonl'), 'dir');
		symlinkSync(realFile, join(sessions, '--a-file-not-a-folder--'));
		symlinkSync(join(outside, 'loose.jsonl'), join(sessions, 'loose.jsonl'));
		mkdirSync(join(sessions, '--plain--', 'real-folder.jsonl'));

		const expected = [plain, join(sessions, '--linked-project--', 'b.jsonl'), join(sessions, '--plain--', 'linked.jsonl')].sort();
		const candidates = [...expected, join(sessions, '--plain--', 'dangling.jsonl'), join(sessions, '--plain--', 'folder.jsonl'),
			join(sessions, '--a-file-not-a-folder--'), join(sessions, 'loose.jsonl'), join(sessions, '--plain--', 'real-folder.jsonl')];
		assert.deepEqual((await listAllWithPi16(agentDir)).sort(), expected, 'Pi 1.6.0 lists these');
		const listed = await ours(agentDir, candidates);
		assert.deepEqual(listed, { discovery: expected, index: expected, watcher: expected });
	});

	it('follows a project folder linked after the watch started, as a listing would find it', async () => {
		const agentDir = join(temp(), 'agent');
		const sessions = join(agentDir, 'sessions');
		writeSession(join(sessions, '--plain--', 'a.jsonl'), header(3));
		await harness.start({ path: sessions, layout: 'per-project' });
		writeSession(join(temp(), 'elsewhere', 'project', 'b.jsonl'), header(3));
		symlinkSync(join(temp(), 'elsewhere', 'project'), join(sessions, '--linked--'), 'dir');
		const linked = join(sessions, '--linked--', 'b.jsonl');
		await harness.log.waitFor((event) => event.kind === 'added' && event.path === linked, 'the linked project\'s session added');
		assert.deepEqual((await discoverSessions([sessionsRoot(agentDir)])).sessions.map((session) => session.path).sort(), [join(sessions, '--plain--', 'a.jsonl'), linked].sort());
	});

	it('skips a FIFO named *.jsonl without waiting for a writer: listed by none, and an event naming it is let go', async function () {
		if (process.platform === 'win32') {
			this.skip();
		}
		const agentDir = join(temp(), 'agent');
		const sessions = join(agentDir, 'sessions');
		const plain = writeSession(join(sessions, '--p--', 'a.jsonl'), header(3));
		const fifo = join(sessions, '--p--', 'pipe.jsonl');
		execFileSync('mkfifo', [fifo]);
		fifos.push(fifo);
		assert.deepEqual(await ours(agentDir, [plain, fifo]), { discovery: [plain], index: [plain], watcher: [plain] });
		// A second FIFO made under the watch: its event is looked at, and the watch still ends at once (it waits for no open).
		const later = join(sessions, '--p--', 'later.jsonl');
		execFileSync('mkfifo', [later]);
		fifos.push(later);
		const marker = writeSession(join(sessions, '--p--', 'marker.jsonl'), header(3));
		await harness.log.waitFor((event) => event.kind === 'added' && event.path === marker, 'a file made after it added');
		assert.equal(harness.watcher?.consumedOffset(later), undefined);
		await harness.work?.close();
		assert.deepEqual(harness.log.events.map((event) => event.path), [marker]);
	});
});
