import assert from 'node:assert/strict';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { nullLogger } from '../../../../src/engine/ports';
import type { ReleaseResolution } from '../../../../src/engine/release';
import { ReleaseSource, type ReleaseChange } from '../../../../src/node/release/releaseSource';
import { EventLog } from '../../../support/eventLog';
import { installNpm, writeJson, writePackage, writeSettings } from '../../../support/piInstall';
import { useTempDir } from '../../../support/tempDirs';
import { testScope } from '../../../support/testWork';
import type { WorkScope } from '../../../../src/work';

/** `2.9.1`, `not-installed`, or `override 2.0.0`: what a change event says, in short. */
function summary(resolution: ReleaseResolution): string {
	if (resolution.kind === 'not-installed') {
		return 'not-installed';
	}
	return resolution.override ? `override ${resolution.release}` : resolution.installed?.version ?? '';
}

describe('following the installed release (ReleaseSource)', () => {
	const temp = useTempDir('pi-release-source');
	let source: ReleaseSource | undefined;
	let work: WorkScope | undefined;

	afterEach(async () => {
		await work?.close();
		source = undefined;
		work = undefined;
	});

	it('follows pi install, pi update and pi remove for several projects, and stays quiet otherwise', async () => {
		const home = join(temp(), 'home');
		const agentDir = join(home, '.pi', 'agent');
		const plain = join(home, 'work', 'plain');
		const pinned = join(home, 'work', 'pinned');
		mkdirSync(plain, { recursive: true });
		mkdirSync(pinned, { recursive: true });
		writeSettings(agentDir, { packages: ['npm:pi-condense'] });
		writeJson(join(agentDir, 'trust.json'), { [pinned]: true });
		writeSettings(join(pinned, '.pi'), { theme: 'dark' });
		const noGlobal = () => Promise.resolve({ kind: 'unknown' } as const);
		work = testScope('releases');
		source = new ReleaseSource({ work, agentDir, logger: nullLogger, home, globalNpmRoot: noGlobal, projectSettingsAllowed: true });
		const log = new EventLog<ReleaseChange>();
		source.onDidChange(log.push);
		const waitFor = (cwd: string, what: string) => log.waitFor((event) => event.cwd === cwd && summary(event.resolution) === what, `${cwd}: ${what}`);
		const seen = (cwd: string) => log.events.filter((event) => event.cwd === cwd).map((event) => summary(event.resolution));

		// `plain` is asked about first, so each re-resolution settles it before `pinned`.
		const first = await source.resolve(plain);
		assert.equal(first.kind, 'not-installed');
		assert.equal(summary(await source.resolve(pinned)), 'not-installed');
		assert.equal(await source.resolve(plain), first, 'resolved once, not per call');
		assert.equal(source.current(plain), first);

		const installed = installNpm(agentDir, '2.8.0');
		await waitFor(plain, '2.8.0');
		await waitFor(pinned, '2.8.0');

		writePackage(installed, '2.9.1');
		await waitFor(plain, '2.9.1');
		await waitFor(pinned, '2.9.1');

		// The project pins its own copy: only `pinned` changes.
		installNpm(join(pinned, '.pi'), '2.4.0');
		writeSettings(join(pinned, '.pi'), { theme: 'dark', packages: ['npm:pi-condense@2.4.0'] });
		await waitFor(pinned, '2.4.0');
		assert.deepEqual(seen(plain), ['2.8.0', '2.9.1']);

		// Rewriting a settings file with what it held changes nothing.
		writeSettings(agentDir, { packages: ['npm:pi-condense'] });
		rmSync(installed, { recursive: true, force: true });
		await waitFor(plain, 'not-installed');
		assert.deepEqual(seen(plain), ['2.8.0', '2.9.1', 'not-installed']);
		assert.deepEqual(seen(pinned), ['2.8.0', '2.9.1', '2.4.0']);
		const removed = source.current(plain);
		assert.deepEqual(removed?.warnings.map((warning) => warning.kind), ['configured-not-installed']);

		source.setChoice('2.0.0');
		assert.deepEqual(log.events.slice(-2).map((event) => [event.cwd, summary(event.resolution)]), [[plain, 'override 2.0.0'], [pinned, 'override 2.0.0']]);
		source.setChoice('2.0.0');
		assert.equal(log.events.length, 8, 'the same choice again is no change');
	});
});
