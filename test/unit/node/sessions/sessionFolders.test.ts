/**
 * The session watcher watches folders, not files: one watch for the sessions root and one per project
 * folder, each event of a folder looked at by name. Real folders, one test per kind of event.
 */
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, renameSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SessionFileEvent, WatchedRoot } from '../../../../src/node/sessions/sessionWatcher';
import { entry, header, useSessionWatcher, writeSession as write } from '../../../support/sessionWatcherHarness';
import { useTempDir } from '../../../support/tempDirs';

/** The file-system watches this process holds (one `FSEventWrap` per `fs.watch`). */
const watchesHeld = (): number => process.getActiveResourcesInfo().filter((name) => name === 'FSEventWrap').length;

describe('watchSessionFiles: folders, not files', function () {
	this.timeout(30_000);
	const temp = useTempDir('watch-folders');
	const harness = useSessionWatcher();
	const { start, appendedUntil } = harness;
	const perProject = (): WatchedRoot => ({ path: join(temp(), 'sessions'), layout: 'per-project' });
	const events = (path: string): SessionFileEvent['kind'][] => harness.log.events.filter((e) => e.path === path).map((e) => e.kind);

	it('holds one watch per folder, none per file', async () => {
		const root = perProject();
		for (const project of ['--a--', '--b--', '--c--']) {
			for (let n = 0; n < 30; n++) {
				write(join(root.path, project, `s${n}.jsonl`), header(3));
			}
		}
		const before = watchesHeld();
		await start(root);
		assert.equal(watchesHeld() - before, 4, 'the root and its three project folders');
	});

	it('tracks every file of a folder larger than one listing slice, silently', async () => {
		const root = perProject();
		const paths = Array.from({ length: 150 }, (_, n) => write(join(root.path, '--p--', `s${n}.jsonl`), header(3) + entry(n)));
		const w = await start(root);
		assert.deepEqual(paths.filter((path) => w.consumedOffset(path) !== statSync(path).size), []);
		const last = paths[149] ?? '';
		const size = statSync(last).size;
		appendFileSync(last, entry(1));
		assert.equal(await appendedUntil(last, size, statSync(last).size), entry(1));
		assert.deepEqual(harness.log.events.map((e) => e.kind), ['appended']);
	});

	it('reports a new file in a project folder it already watches as added, then its appends', async () => {
		const root = perProject();
		write(join(root.path, '--p--', 'a.jsonl'), header(3));
		await start(root);
		const path = write(join(root.path, '--p--', 'b.jsonl'), header(3));
		const added = await harness.log.waitFor((e) => e.kind === 'added' && e.path === path, 'added');
		appendFileSync(path, entry(1));
		assert.equal(await appendedUntil(path, added.kind === 'added' ? added.consumed : -1, statSync(path).size), entry(1));
	});

	it('follows appends to several files at once, every byte once', async () => {
		const root = perProject();
		const paths = ['--a--/1.jsonl', '--a--/2.jsonl', '--b--/3.jsonl'].map((name) => write(join(root.path, name), header(3)));
		const w = await start(root);
		const from = paths.map((path) => w.consumedOffset(path) ?? -1);
		let expected = '';
		for (let n = 0; n < 100; n++) {
			expected += entry(n);
			for (const path of paths) {
				appendFileSync(path, entry(n));
			}
		}
		for (const [i, path] of paths.entries()) {
			assert.equal(await appendedUntil(path, from[i] ?? -1, statSync(path).size), expected);
		}
	});

	it('reports a file renamed in its folder: the old name removed, the new one added', async () => {
		const root = perProject();
		const before = write(join(root.path, '--p--', 'a.jsonl'), header(3) + entry(1));
		await start(root);
		const after = join(root.path, '--p--', 'renamed.jsonl');
		renameSync(before, after);
		await harness.log.waitFor((e) => e.kind === 'removed' && e.path === before, 'old name removed');
		await harness.log.waitFor((e) => e.kind === 'added' && e.path === after, 'new name added');
		assert.equal(harness.watcher?.consumedOffset(before), undefined);
	});

	it('reports a file replaced by another renamed over it (written beside, then renamed) as rewritten, and follows the new one', async () => {
		const root = perProject();
		const path = write(join(root.path, '--p--', 'a.jsonl'), header(3));
		await start(root);
		for (let n = 0; n < 3; n++) {
			harness.log.clear();
			const beside = write(join(root.path, '--p--', `.a-${n}.tmp`), header(3) + entry(n));
			renameSync(beside, path);
			const rewritten = await harness.log.waitFor((e) => e.kind === 'rewritten' && e.path === path, `replaced ${n}`);
			assert.ok(rewritten.kind === 'rewritten' && rewritten.reason === 'replaced');
			appendFileSync(path, entry(10 + n));
			assert.equal(await appendedUntil(path, rewritten.consumed, statSync(path).size), entry(10 + n));
		}
	});

	it('reports the sessions of a removed project folder as removed, and keeps following the others', async () => {
		const root = perProject();
		const gone = [write(join(root.path, '--gone--', 'a.jsonl'), header(3)), write(join(root.path, '--gone--', 'b.jsonl'), header(3))];
		const kept = write(join(root.path, '--kept--', 'c.jsonl'), header(3));
		const w = await start(root);
		rmSync(join(root.path, '--gone--'), { recursive: true });
		for (const path of gone) {
			await harness.log.waitFor((e) => e.kind === 'removed' && e.path === path, `${path} removed`);
		}
		const from = w.consumedOffset(kept) ?? -1;
		appendFileSync(kept, entry(1));
		assert.equal(await appendedUntil(kept, from, statSync(kept).size), entry(1));
		assert.deepEqual(events(kept), ['appended']);
	});

	it('follows a project folder renamed: its sessions removed under the old name, added under the new, then appended to', async () => {
		const root = perProject();
		const before = write(join(root.path, '--old--', 'a.jsonl'), header(3));
		await start(root);
		renameSync(join(root.path, '--old--'), join(root.path, '--new--'));
		const after = join(root.path, '--new--', 'a.jsonl');
		await harness.log.waitFor((e) => e.kind === 'removed' && e.path === before, 'removed under the old name');
		const added = await harness.log.waitFor((e) => e.kind === 'added' && e.path === after, 'added under the new name');
		appendFileSync(after, entry(1));
		assert.equal(await appendedUntil(after, added.kind === 'added' ? added.consumed : -1, statSync(after).size), entry(1));
		assert.deepEqual(events(before), ['removed'], 'nothing more under the old name');
	});

	it('keeps following a project folder and the root whose times change (each reports it under its own name)', async () => {
		const root = perProject();
		const path = write(join(root.path, '--p--', 'a.jsonl'), header(3));
		const w = await start(root);
		const later = new Date(Date.now() + 60_000);
		utimesSync(join(root.path, '--p--'), later, later);
		utimesSync(root.path, later, later);
		const from = w.consumedOffset(path) ?? -1;
		appendFileSync(path, entry(1));
		assert.equal(await appendedUntil(path, from, statSync(path).size), entry(1));
		const made = write(join(root.path, '--p--', 'b.jsonl'), header(3));
		await harness.log.waitFor((e) => e.kind === 'added' && e.path === made, 'added: the folder is still watched');
		assert.deepEqual(events(path), ['appended'], 'never reported removed');
	});

	it('follows a project folder deleted and made again at once (its inode often comes back)', async () => {
		const root = perProject();
		const folder = join(root.path, '--p--');
		const path = write(join(folder, 'a.jsonl'), header(3));
		await start(root);
		rmSync(folder, { recursive: true });
		mkdirSync(folder);
		await harness.log.waitFor((e) => e.kind === 'removed' && e.path === path, 'removed');
		const again = write(join(folder, 'b.jsonl'), header(3));
		const added = await harness.log.waitFor((e) => e.kind === 'added' && e.path === again, 'added in the new folder');
		appendFileSync(again, entry(1));
		assert.equal(await appendedUntil(again, added.kind === 'added' ? added.consumed : -1, statSync(again).size), entry(1));
	});

	it('follows a sessions root reached through a symbolic link, under the link\'s path', async () => {
		const real = join(temp(), 'real-sessions');
		const path = write(join(real, '--p--', 'a.jsonl'), header(3));
		const link = join(temp(), 'sessions');
		symlinkSync(real, link, 'dir');
		const w = await start({ path: link, layout: 'per-project' });
		const seen = join(link, '--p--', 'a.jsonl');
		const size = statSync(path).size;
		assert.equal(w.consumedOffset(seen), size);
		appendFileSync(path, entry(1));
		assert.equal(await appendedUntil(seen, size, statSync(path).size), entry(1));
		const made = write(join(real, '--q--', 'b.jsonl'), header(3));
		await harness.log.waitFor((e) => e.kind === 'added' && e.path === join(link, '--q--', 'b.jsonl'), 'added in a new project, under the link');
		assert.ok(made);
	});

	it('ignores other files and folders deeper than the project folders', async () => {
		const root = perProject();
		const path = write(join(root.path, '--p--', 'a.jsonl'), header(3));
		await start(root);
		writeFileSync(join(root.path, 'stray.jsonl'), header(3));
		const deep = write(join(root.path, '--p--', 'sub', 'deep.jsonl'), header(3));
		write(join(root.path, '--p--', 'notes.txt'), 'x\n');
		appendFileSync(path, entry(1));
		await appendedUntil(path, Buffer.byteLength(header(3)), statSync(path).size);
		mkdirSync(join(root.path, '--q--'));
		const later = write(join(root.path, '--q--', 'b.jsonl'), header(3));
		await harness.log.waitFor((e) => e.kind === 'added' && e.path === later, 'added');
		assert.deepEqual([...new Set(harness.log.events.map((e) => e.path))], [path, later]);
		assert.equal(harness.watcher?.consumedOffset(deep), undefined);
	});
});
