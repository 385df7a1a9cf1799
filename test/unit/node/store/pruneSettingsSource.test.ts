/**
 * PruneSettingsSource hears every change of settings.json, also an edit in place after the file
 * was replaced (Pi and Pi Condense save by renaming a new file over it). While the file itself was
 * watched with chokidar 4, such an edit often went unheard, and after some replacements nothing was
 * heard any more: the integration suite's problem report (a repaired settings.json) and everything
 * after it that follows settings.json failed by chance.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { nullLogger } from '../../../../src/engine/ports';
import type { PruneSettings } from '../../../../src/node/settings/readPruneSettings';
import { PruneSettingsSource } from '../../../../src/node/store/pruneSettingsSource';
import { EventLog, pause } from '../../../support/eventLog';
import { useTempDir } from '../../../support/tempDirs';
import { testScope } from '../../../support/testWork';
import type { WorkScope } from '../../../../src/work';

describe('PruneSettingsSource', () => {
	const tempDir = useTempDir('pi-condense-settings-source');
	let work: WorkScope | undefined;

	afterEach(async () => {
		await work?.close();
		work = undefined;
	});

	it('reads settings.json again after each replacement (as Pi saves it) and each edit in place, 30 times in a row', async function () {
		this.timeout(120_000);
		const agentDir = join(tempDir(), 'agent');
		mkdirSync(agentDir);
		const path = join(agentDir, 'settings.json');
		const text = (keepRecentToolCalls: number): string => JSON.stringify({ theme: 'dark', contextPrune: { enabled: true, keepRecentToolCalls } }, null, 2);
		writeFileSync(path, text(0));
		work = testScope('settings');
		const source = new PruneSettingsSource(work, agentDir, nullLogger);
		await source.start();
		const log = new EventLog<PruneSettings>();
		source.onDidChange(log.push);
		const read = (value: number, what: string) => log.waitFor((settings) => (settings.raw as { keepRecentToolCalls?: unknown } | undefined)?.keepRecentToolCalls === value, what);
		for (let round = 1; round <= 30; round++) {
			// Pi saves by writing beside the file and renaming over it.
			writeFileSync(`${path}.tmp`, text(round));
			renameSync(`${path}.tmp`, path);
			await read(round, `the replaced file read in round ${round}`);
			// The edit comes at a varying moment after the replacement was read.
			await pause(round % 7 * 15);
			writeFileSync(path, text(1000 + round));
			await read(1000 + round, `the file edited in place read in round ${round}`);
		}
	});

	it('reads settings.json again after its own save and a repair by hand', async () => {
		const agentDir = join(tempDir(), 'agent');
		mkdirSync(agentDir);
		const path = join(agentDir, 'settings.json');
		writeFileSync(path, '{}');
		work = testScope('settings');
		const source = new PruneSettingsSource(work, agentDir, nullLogger);
		await source.start();
		const log = new EventLog<PruneSettings>();
		source.onDidChange(log.push);
		await source.update((current) => ({ ...current, enabled: false }));
		writeFileSync(path, '{ "theme": "dark" "contextPrune": {} }');
		await log.waitFor((settings) => settings.fileState.kind === 'invalid-json', 'the broken file read');
		writeFileSync(path, '{ "contextPrune": { "enabled": true } }');
		await log.waitFor((settings) => settings.fileState.kind === 'ok' && settings.config.enabled, 'the repaired file read');
	});
});
