import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listFolder, type FolderEntry } from '../../../../src/node/sessions/folderListing';
import { isWorkStopped } from '../../../../src/work';
import { useTempDir } from '../../../support/tempDirs';

describe('listFolder', () => {
	const temp = useTempDir('listing');

	it('hands a large folder over in slices, letting the event loop turn between two', async () => {
		for (let n = 0; n < 200; n++) {
			writeFileSync(join(temp(), `s${n}.jsonl`), '');
		}
		const slices: number[] = [];
		// Counts turns of the event loop: each turn runs the one immediate the previous turn queued.
		let turns = 0;
		let counting = true;
		const count = (): void => {
			turns++;
			if (counting) {
				setImmediate(count);
			}
		};
		setImmediate(count);
		const turnsAtSlice: number[] = [];
		try {
			await listFolder(temp(), new AbortController().signal, (entries) => {
				slices.push(entries.length);
				turnsAtSlice.push(turns);
			});
		} finally {
			counting = false;
		}
		assert.equal(slices.reduce((a, b) => a + b, 0), 200);
		assert.ok(slices.length >= 3 && slices.every((size) => size <= 64), `slices: ${slices.join(', ')}`);
		for (let i = 1; i < turnsAtSlice.length; i++) {
			assert.ok((turnsAtSlice[i] ?? 0) > (turnsAtSlice[i - 1] ?? 0), 'the event loop turned between two slices');
		}
	});

	it('says what each entry is, through symbolic links, and false for a folder that is not there', async () => {
		mkdirSync(join(temp(), 'project'));
		writeFileSync(join(temp(), 'a.jsonl'), '');
		symlinkSync(join(temp(), 'project'), join(temp(), 'linked-project'));
		symlinkSync(join(temp(), 'a.jsonl'), join(temp(), 'linked.jsonl'));
		symlinkSync(join(temp(), 'nowhere'), join(temp(), 'dangling'));
		const entries: FolderEntry[] = [];
		assert.equal(await listFolder(temp(), new AbortController().signal, (slice) => {
			entries.push(...slice);
		}), true);
		assert.deepEqual(Object.fromEntries(entries.map((entry) => [entry.name, entry.kind])), {
			'project': 'folder', 'a.jsonl': 'file', 'linked-project': 'folder', 'linked.jsonl': 'file', 'dangling': 'other',
		});
		assert.equal(await listFolder(join(temp(), 'missing'), new AbortController().signal, () => undefined), false);
	});

	it('stops once its signal is aborted', async () => {
		for (let n = 0; n < 200; n++) {
			writeFileSync(join(temp(), `s${n}.jsonl`), '');
		}
		const stop = new AbortController();
		let taken = 0;
		const listing = listFolder(temp(), stop.signal, (entries) => {
			taken += entries.length;
			stop.abort();
		});
		await assert.rejects(listing, isWorkStopped);
		assert.ok(taken < 200);
	});
});
