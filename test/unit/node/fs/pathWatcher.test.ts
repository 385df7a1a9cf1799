/**
 * PathWatcher hears every change of a watched path, whatever replaced the file before: an atomic
 * replacement (write beside, rename over) followed by an in-place write is the pattern chokidar 4's
 * file watch lost about one time in eight. A path that does not exist yet, a folder removed and made
 * again, and the depth below a target are followed too. Deadlines only turn a missing event into a
 * failure; nothing depends on how fast an event comes.
 */
import assert from 'node:assert/strict';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PathWatcher } from '../../../../src/node/fs/pathWatcher';
import { EventLog, pause } from '../../../support/eventLog';
import { useTempDir } from '../../../support/tempDirs';
import { testScope } from '../../../support/testWork';

describe('PathWatcher', () => {
	const tempDir = useTempDir('pi-condense-path-watcher');
	let watcher: PathWatcher | undefined;

	afterEach(async () => {
		await watcher?.close();
		watcher = undefined;
	});

	async function follow(path: string, depth = 0): Promise<EventLog<string>> {
		const log = new EventLog<string>();
		watcher = new PathWatcher(testScope('path watcher'), [{ path, depth }], log.push, (error) => assert.fail(String(error)));
		await watcher.ready();
		return log;
	}

	it('hears an in-place write after each atomic replacement of the file, 40 times in a row', async function () {
		this.timeout(120_000);
		const file = join(tempDir(), 'settings.json');
		writeFileSync(file, '{}');
		const log = await follow(file);
		for (let round = 0; round < 40; round++) {
			writeFileSync(`${file}.tmp`, `{"replaced":${round}}`);
			renameSync(`${file}.tmp`, file);
			await log.waitFor((path) => path === file, `the replacement in round ${round}`);
			// The replacement's events settle at their own pace; the write comes at a varying moment after.
			await pause(round % 7 * 15);
			log.clear();
			writeFileSync(file, `{"written":${round}}`);
			await log.waitFor((path) => path === file, `the in-place write in round ${round}`);
		}
	});

	it('follows a file whose folders do not exist yet, and its folder removed and made again', async () => {
		const agentDir = join(tempDir(), 'pi', 'agent');
		const file = join(agentDir, 'settings.json');
		const log = await follow(file);
		mkdirSync(agentDir, { recursive: true });
		await log.waitFor((path) => path === join(tempDir(), 'pi'), 'the first missing folder made');
		await watcher?.settled();
		writeFileSync(file, '{}');
		await log.waitFor((path) => path === file, 'the file created under new folders');
		rmSync(agentDir, { recursive: true });
		await log.waitFor((path) => path === agentDir || path === file || path === join(tempDir(), 'pi'), 'the folder removed');
		log.clear();
		mkdirSync(agentDir, { recursive: true });
		await log.waitFor((path) => path === agentDir || path === join(tempDir(), 'pi'), 'the folder made again');
		await watcher?.settled();
		log.clear();
		writeFileSync(file, '{"again":true}');
		await log.waitFor((path) => path === file, 'the file written in the folder made again');
	});

	it('reports changes down to the depth asked for, and none deeper or beside', async () => {
		const extensions = join(tempDir(), 'extensions');
		mkdirSync(join(extensions, 'pi-condense', 'node_modules', 'dep'), { recursive: true });
		const log = await follow(extensions, 2);
		writeFileSync(join(tempDir(), 'beside.json'), '{}');
		writeFileSync(join(extensions, 'pi-condense', 'node_modules', 'dep', 'index.js'), '');
		const manifest = join(extensions, 'pi-condense', 'package.json');
		writeFileSync(manifest, '{}');
		await log.waitFor((path) => path === manifest, 'a file two levels down');
		mkdirSync(join(extensions, 'other'));
		await log.waitFor((path) => path === join(extensions, 'other'), 'a new folder one level down');
		await watcher?.settled();
		const added = join(extensions, 'other', 'index.ts');
		writeFileSync(added, '');
		await log.waitFor((path) => path === added, 'a file in a folder made after the watch started');
		assert.deepEqual(log.events.filter((path) => path.endsWith('beside.json') || path.includes('node_modules')), [], 'nothing beside or deeper');
	});
});
