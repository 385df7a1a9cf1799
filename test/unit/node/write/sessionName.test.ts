/**
 * Rename Session… writes what Pi 1.6.0's `/name` writes (its SessionManager.appendSessionInfo, run for
 * real): the same keys in the same order, the name with line breaks made spaces and trimmed, chained
 * after the leaf; and Pi 1.6.0 then reads the session with that name, our entry its leaf, every earlier
 * entry unchanged. An empty name clears it, as in Pi.
 */
import assert from 'node:assert/strict';
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sessionInfoDraft } from '../../../../src/engine/write';
import { writeEntriesToSession } from '../../../../src/node/write';
import { piCondenseSessionsDir } from '../../../support/paths';
import { readWithPi16 } from '../../../support/pi16';
import { makeOld, noPiRunning, TempDir } from '../../../support/tempSession';
import { testWork } from '../../../support/testWork';

const SOURCE = join(piCondenseSessionsDir, 'noprune-batching-pi-1.6.0', 'session.jsonl');

/** A line with its generated id and time made fixed (they differ between any two writers). */
function shape(line: string): string {
	return line.replace(/"id":"[0-9a-f]{8}"/, '"id":"ID"').replace(/"timestamp":"[^"]+"/, '"timestamp":"T"');
}

describe('Rename Session…: a session_info entry as Pi 1.6.0 writes it', function () {
	this.timeout(120_000);
	let dir: TempDir;
	beforeEach(() => {
		dir = new TempDir();
	});
	afterEach(() => {
		dir.remove();
	});

	async function renamed(name: string): Promise<{ path: string; original: string; line: string; id: string }> {
		const path = join(dir.path, 'session.jsonl');
		copyFileSync(SOURCE, path);
		makeOld(path);
		const original = readFileSync(path, 'utf8');
		const result = await writeEntriesToSession(testWork, path, [sessionInfoDraft(name)], { checkPiHolders: noPiRunning });
		assert.equal(result.kind, 'written', result.kind === 'refused' ? result.refusal.message : result.kind);
		const line = readFileSync(path, 'utf8').slice(original.length);
		return { path, original, line, id: (JSON.parse(line) as { id: string }).id };
	}

	for (const name of ['Refactor the auth module', '  two\r\nlines \n']) {
		it(`writes the bytes Pi's /name writes, and Pi reads the name back (${JSON.stringify(name)})`, async () => {
			const ours = await renamed(name);
			const [pis, read, before] = await readWithPi16([{ text: ours.original, appendName: name }, { path: ours.path }, { text: ours.original }]);
			assert.ok(pis?.appended !== undefined, pis?.error);
			assert.equal(shape(ours.line), shape(pis.appended));
			assert.equal(JSON.parse(ours.line).parentId, before?.leafId, 'chained after the leaf');
			assert.equal(read?.error, undefined, read?.error);
			assert.equal(read?.unchanged, true);
			assert.equal(read?.name, name.replace(/[\r\n]+/g, ' ').trim());
			assert.equal(read?.leafId, ours.id);
			assert.deepEqual(read?.entries.slice(0, before?.entries.length), before?.entries);
		});
	}

	it('an empty name clears the name, as in Pi', async () => {
		const ours = await renamed('   ');
		const [read] = await readWithPi16([{ path: ours.path }]);
		assert.equal(read?.name, undefined);
		assert.equal(JSON.parse(ours.line).name, '');
	});
});
