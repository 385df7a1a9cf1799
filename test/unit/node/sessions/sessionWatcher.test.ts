import assert from 'node:assert/strict';
import { appendFileSync, closeSync, mkdirSync, openSync, renameSync, rmSync, statSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { KnownFile, WatchedRoot } from '../../../../src/node/sessions/sessionWatcher';
import { pause } from '../../../support/eventLog';
import { entry, header, useSessionWatcher, writeSession as write } from '../../../support/sessionWatcherHarness';
import { useTempDir } from '../../../support/tempDirs';

describe('watchSessionFiles', function () {
	this.timeout(30_000);
	const temp = useTempDir('watch');
	const harness = useSessionWatcher();
	const { start, appendedUntil } = harness;

	it('tracks existing files silently, then reports only the newly appended complete lines', async () => {
		const root: WatchedRoot = { path: join(temp(), 'sessions'), layout: 'per-project' };
		const path = write(join(root.path, '--p--', 'a.jsonl'), header(3) + entry(1));
		const w = await start(root);
		const startSize = statSync(path).size;
		assert.equal(w.consumedOffset(path), startSize);
		appendFileSync(path, entry(2));
		const bytes = await appendedUntil(path, startSize, statSync(path).size);
		assert.equal(bytes, entry(2));
		assert.deepEqual(harness.log.events.filter((e) => e.kind !== 'appended'), [], 'no added event for a file present at start');
	});

	describe('a file the session index knows, unchanged since it read it', () => {
		const known = (path: string, firstLine: string, change: Partial<KnownFile> = {}): ReadonlyMap<string, KnownFile> => {
			const stats = statSync(path);
			return new Map([[path, { ino: stats.ino, size: stats.size, mtimeMs: stats.mtimeMs, consumed: stats.size, firstLineHash: createHash('sha256').update(firstLine).digest('hex'), ...change }]]);
		};

		it('is tracked from the index\'s row (not read at start): appends follow from its end', async () => {
			const root: WatchedRoot = { path: join(temp(), 'sessions'), layout: 'per-project' };
			const path = write(join(root.path, '--p--', 'a.jsonl'), header(3) + entry(1));
			const size = statSync(path).size;
			const w = await start(root, known(path, header(3)));
			assert.equal(w.consumedOffset(path), size);
			appendFileSync(path, entry(2));
			assert.equal(await appendedUntil(path, size, statSync(path).size), entry(2));
			assert.deepEqual(harness.log.events.filter((e) => e.kind !== 'appended'), []);
		});

		it('checks its first line against the row\'s hash at its first change (so the row, not the file, was used at start)', async () => {
			const root: WatchedRoot = { path: join(temp(), 'sessions'), layout: 'per-project' };
			const path = write(join(root.path, '--p--', 'a.jsonl'), header(3) + entry(1));
			// The row says another first line: had the file been read at start, its first line would be the reference.
			await start(root, known(path, header(2)));
			appendFileSync(path, entry(2));
			const rewritten = await harness.log.waitFor((e) => e.kind === 'rewritten' && e.path === path, 'rewritten');
			assert.equal(rewritten.kind === 'rewritten' ? rewritten.reason : undefined, 'first-line-changed');
		});

		it('is read as before when the row no longer describes it (another size, a partial last line)', async () => {
			const root: WatchedRoot = { path: join(temp(), 'sessions'), layout: 'per-project' };
			const path = write(join(root.path, '--p--', 'a.jsonl'), header(3) + entry(1));
			const size = statSync(path).size;
			const w = await start(root, known(path, header(2), { size: size - 1 }));
			assert.equal(w.consumedOffset(path), size);
			appendFileSync(path, entry(2));
			assert.equal(await appendedUntil(path, size, statSync(path).size), entry(2), 'appended, not rewritten: the file\'s own first line is the reference');
		});
	});

	it('keeps a line written in two chunks until its newline arrives, and never loses bytes in a burst', async () => {
		const root: WatchedRoot = { path: join(temp(), 'sessions'), layout: 'per-project' };
		const path = write(join(root.path, '--p--', 'a.jsonl'), header(3));
		const w = await start(root);
		const startSize = w.consumedOffset(path) ?? -1;
		const split = entry(7);
		appendFileSync(path, split.slice(0, 25));
		await pause(150); // let the watcher see the partial line (the assertions hold either way)
		appendFileSync(path, split.slice(25));
		let expected = split;
		for (let n = 0; n < 200; n++) {
			appendFileSync(path, entry(n));
			expected += entry(n);
		}
		appendFileSync(path, '{"type":"custom","partial":');
		const bytes = await appendedUntil(path, startSize, startSize + Buffer.byteLength(expected));
		assert.equal(bytes, expected);
		assert.equal(w.consumedOffset(path), startSize + Buffer.byteLength(expected), 'the trailing partial line is kept for later');
	});

	it('reports a truncate-and-rewrite and a changed first line as rewritten, then follows the new content', async () => {
		const root: WatchedRoot = { path: join(temp(), 'sessions'), layout: 'per-project' };
		const path = write(join(root.path, '--p--', 'a.jsonl'), header(2) + entry(1) + entry(2));
		const w = await start(root);

		// Same length, new first line (as a v2 → v3 migration changes it), plus more lines.
		const fd = openSync(path, 'r+');
		writeSync(fd, header(3), 0);
		closeSync(fd);
		appendFileSync(path, entry(3));
		const changed = await harness.log.waitFor((e) => e.kind === 'rewritten', 'rewritten after the first line changed');
		assert.ok(changed.kind === 'rewritten' && changed.reason === 'first-line-changed');
		assert.equal(changed.consumed, statSync(path).size);

		harness.log.clear();
		truncateSync(path, 0);
		writeFileSync(path, header(3) + entry(9));
		const shrank = await harness.log.waitFor((e) => e.kind === 'rewritten' && e.reason === 'shrank', 'rewritten after truncation');
		assert.ok(shrank.kind === 'rewritten');
		appendFileSync(path, entry(10));
		const bytes = await appendedUntil(path, shrank.consumed, statSync(path).size);
		assert.equal(bytes, Buffer.from(header(3) + entry(9) + entry(10)).subarray(shrank.consumed).toString('utf8'), 'everything after the rewrite, once');
		assert.equal(w.consumedOffset(path), statSync(path).size);
	});

	it('sees a write made just after the change it just reported', async () => {
		const root: WatchedRoot = { path: join(temp(), 'sessions'), layout: 'per-project' };
		const path = write(join(root.path, '--p--', 'a.jsonl'), header(3));
		const w = await start(root);
		const startSize = w.consumedOffset(path) ?? -1;
		appendFileSync(path, entry(1));
		await harness.log.waitFor((e) => e.kind === 'appended', 'first append');
		appendFileSync(path, entry(2)); // nothing else happens to the file afterwards
		const bytes = await appendedUntil(path, startSize, statSync(path).size);
		assert.equal(bytes, entry(1) + entry(2));
	});

	it('reports a deleted file as removed', async () => {
		const root: WatchedRoot = { path: join(temp(), 'sessions'), layout: 'per-project' };
		const path = write(join(root.path, '--p--', 'a.jsonl'), header(3));
		await start(root);
		rmSync(path);
		await harness.log.waitFor((e) => e.kind === 'removed' && e.path === path, 'removed');
		assert.equal(harness.watcher?.consumedOffset(path), undefined);
	});

	it('reports a new file in a new project folder as added, then its appends', async () => {
		const root: WatchedRoot = { path: join(temp(), 'sessions'), layout: 'per-project' };
		mkdirSync(root.path, { recursive: true });
		await start(root);
		const path = write(join(root.path, '--new-project--', 'b.jsonl'), header(3));
		const added = await harness.log.waitFor((e) => e.kind === 'added' && e.path === path, 'added');
		assert.ok(added.kind === 'added');
		appendFileSync(path, entry(1));
		const bytes = await appendedUntil(path, added.consumed, statSync(path).size);
		assert.equal(header(3).slice(added.consumed) + entry(1), bytes);
	});

	it('waits for a session folder that does not exist yet, without creating it', async () => {
		const root: WatchedRoot = { path: join(temp(), 'agent', 'sessions'), layout: 'per-project' };
		await start(root);
		assert.throws(() => statSync(join(temp(), 'agent')), /ENOENT/);
		const path = write(join(root.path, '--p--', 'first.jsonl'), header(3) + entry(1));
		await harness.log.waitFor((e) => e.kind === 'added' && e.path === path, 'added once the folder appears');
	});

	it('follows the session folder being deleted and created again', async () => {
		const root: WatchedRoot = { path: join(temp(), 'sessions'), layout: 'per-project' };
		const path = write(join(root.path, '--p--', 'a.jsonl'), header(3));
		await start(root);
		rmSync(root.path, { recursive: true });
		await harness.log.waitFor((e) => e.kind === 'removed' && e.path === path, 'removed with its folder');
		const again = write(join(root.path, '--q--', 'b.jsonl'), header(3));
		await harness.log.waitFor((e) => e.kind === 'added' && e.path === again, 'added after the folder came back');
	});

	it('follows a session folder replaced by a new one before the watcher noticed (moved away, another made at once)', async () => {
		const root: WatchedRoot = { path: join(temp(), 'sessions'), layout: 'per-project' };
		const path = write(join(root.path, '--p--', 'a.jsonl'), header(3));
		await start(root);
		renameSync(root.path, join(temp(), 'sessions-before'));
		mkdirSync(root.path);
		await harness.log.waitFor((e) => e.kind === 'removed' && e.path === path, 'removed with its folder');
		const again = write(join(root.path, '--q--', 'b.jsonl'), header(3));
		await harness.log.waitFor((e) => e.kind === 'added' && e.path === again, 'added in the new folder');
	});

	it('watches a flat folder: session files directly inside, nothing in sub-folders or other files', async () => {
		const root: WatchedRoot = { path: join(temp(), 'flat'), layout: 'flat' };
		mkdirSync(root.path);
		await start(root);
		const notes = write(join(root.path, 'notes.txt'), 'x\n');
		const nested = write(join(root.path, 'sub', 'nested.jsonl'), header(3));
		const path = write(join(root.path, 'direct.jsonl'), header(3));
		await harness.log.waitFor((e) => e.kind === 'added' && e.path === path, 'added');
		// Appends to all three, the session file's last: once its append is reported, the others' would have been.
		appendFileSync(notes, 'y\n');
		appendFileSync(nested, entry(1));
		appendFileSync(path, entry(1));
		await appendedUntil(path, Buffer.byteLength(header(3)), statSync(path).size);
		assert.deepEqual([...new Set(harness.log.events.map((e) => e.path))], [path]);
		assert.equal(harness.watcher?.consumedOffset(notes), undefined);
		assert.equal(harness.watcher?.consumedOffset(nested), undefined);
	});

	it('stops reporting once closed', async () => {
		const root: WatchedRoot = { path: join(temp(), 'sessions'), layout: 'per-project' };
		const path = write(join(root.path, '--p--', 'a.jsonl'), header(3));
		const w = await start(root);
		appendFileSync(path, entry(1));
		assert.ok(w);
		await harness.work?.close();
		const count = harness.log.events.length;
		const closedLog = harness.log;
		// A second watcher of the same folder: once it has reported the append, the closed one would have too.
		const second = await start(root);
		const from = second.consumedOffset(path) ?? -1;
		appendFileSync(path, entry(2));
		await appendedUntil(path, from, statSync(path).size);
		assert.equal(closedLog.events.length, count);
	});
});
