/** Which copy of pi-condense Pi loads when packages name resources: paths, filters, auto-discovery, several copies, none. */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { installNpm, writePackage, writeSettings } from '../../../support/piInstall';
import { useReleaseWorld } from './releaseWorld';

describe('finding the pi-condense Pi loads (spec §8): resources, copies and the override', () => {
	const { home, agentDir, cwd, projectPi, resolve, followed, trust, kinds } = useReleaseWorld();

	it('resolves local paths against the settings file\'s folder, expands ~, and takes bare names as paths', async () => {
		const checkout = writePackage(join(home(), 'src', 'pi-condense'), '2.6.0');
		writeSettings(agentDir(), { packages: ['../../src/pi-condense'] });
		const relative = await followed();
		assert.equal(relative.installed?.installPath, checkout);
		assert.equal(relative.installed?.sourceKind, 'local');
		writeSettings(agentDir(), { packages: ['~/src/pi-condense'] });
		assert.equal((await followed()).installed?.installPath, checkout);
		// A bare name is a folder next to settings.json, not the npm package.
		installNpm(agentDir(), '2.9.1');
		writeSettings(agentDir(), { packages: ['pi-condense'] });
		const bare = await resolve();
		assert.equal(bare.kind, 'not-installed');
		assert.deepEqual(bare.warnings, [{
			kind: 'configured-not-installed', entry: 'pi-condense', settingsFile: join(agentDir(), 'settings.json'),
			installPath: join(agentDir(), 'pi-condense'), sourceKind: 'local',
		}]);
		writePackage(join(agentDir(), 'pi-condense'), '2.3.0');
		assert.equal((await followed()).release, '2.3.0');
	});

	it('applies object entries: an empty extensions filter, and a project autoload:false filter over the user entry', async () => {
		installNpm(agentDir(), '2.9.1');
		writeSettings(agentDir(), { packages: [{ source: 'npm:pi-condense', extensions: [] }] });
		assert.equal((await resolve()).kind, 'not-installed');
		writeSettings(agentDir(), { packages: ['npm:pi-condense'] });
		trust({ [cwd()]: true });
		writeSettings(projectPi(), { packages: [{ source: 'npm:pi-condense', autoload: false, extensions: ['!index.ts'] }] });
		assert.equal((await resolve()).kind, 'not-installed');
		writeSettings(projectPi(), { packages: [{ source: 'npm:pi-condense', autoload: false, extensions: ['index.ts'] }] });
		const filtered = await followed();
		assert.equal(filtered.installed?.scope, 'user');
		assert.equal(filtered.installed?.installPath, join(agentDir(), 'npm', 'node_modules', 'pi-condense'));
	});

	it('finds a checkout named by the extensions key through its index.ts, and honours ! patterns', async () => {
		const checkout = writePackage(join(home(), 'src', 'pi-condense'), '2.5.0');
		writeSettings(agentDir(), { extensions: ['~/src/pi-condense/index.ts'] });
		const release = await followed();
		assert.equal(release.how, 'extensions');
		assert.equal(release.installed?.installPath, checkout);
		assert.equal(release.installed?.entry, '~/src/pi-condense/index.ts');
		writeSettings(agentDir(), { extensions: ['~/src/pi-condense', '!**/pi-condense/index.ts'] });
		assert.equal((await resolve()).kind, 'not-installed');
	});

	it('discovers <agentDir>/extensions/pi-condense, unless a -path entry turns it off', async () => {
		const dir = writePackage(join(agentDir(), 'extensions', 'pi-condense'), '2.7.0');
		writeFileSync(join(agentDir(), 'extensions', 'other.ts'), 'export default () => {};\n');
		const release = await followed();
		assert.equal(release.how, 'auto-discovery');
		assert.equal(release.installed?.installPath, dir);
		assert.equal(release.installed?.entry, undefined);
		writeSettings(agentDir(), { extensions: ['-extensions/pi-condense/index.ts'] });
		assert.equal((await resolve()).kind, 'not-installed');
	});

	it('reports several copies and follows Pi\'s precedence: project auto-discovery before package resources', async () => {
		installNpm(agentDir(), '2.9.1');
		writeSettings(agentDir(), { packages: ['npm:pi-condense'] });
		trust({ [cwd()]: true });
		writePackage(join(projectPi(), 'extensions', 'pi-condense'), '2.4.0');
		const release = await followed();
		assert.equal(release.release, '2.4.0');
		assert.equal(release.installed?.foundBy, 'auto-discovery');
		assert.equal(release.installed?.scope, 'project');
		assert.deepEqual(release.others.map((copy) => [copy.version, copy.foundBy]), [['2.9.1', 'packages']]);
		assert.deepEqual(kinds(release), ['several-copies']);
	});

	it('counts one copy reached twice (an extensions entry pointing into the npm install) once', async () => {
		installNpm(agentDir(), '2.9.1');
		writeSettings(agentDir(), { packages: ['npm:pi-condense'], extensions: ['npm/node_modules/pi-condense'] });
		const release = await followed();
		assert.deepEqual(release.others, []);
		assert.deepEqual(release.warnings, []);
	});

	it('says not installed, and where it looked, when Pi has no pi-condense', async () => {
		writeSettings(agentDir(), { packages: ['npm:pi-powerline-footer'] });
		installNpm(agentDir(), '1.0.0', 'pi-powerline-footer');
		const none = await resolve({ cwd: undefined });
		assert.equal(none.kind, 'not-installed');
		assert.deepEqual(none.searched, [join(agentDir(), 'settings.json'), join(agentDir(), 'extensions')]);
		assert.deepEqual(none.warnings, []);
	});

	it('names a broken package.json and an unreadable settings.json', async () => {
		const installPath = installNpm(agentDir(), '2.9.1');
		writeFileSync(join(installPath, 'package.json'), '{ "name": "pi-condense", ');
		writeSettings(agentDir(), { packages: ['npm:pi-condense'] });
		const broken = await resolve();
		assert.equal(broken.kind, 'not-installed');
		assert.equal(broken.warnings.length, 1);
		const [warning] = broken.warnings;
		assert.equal(warning?.kind, 'unreadable-package-json');
		assert.equal(warning?.kind === 'unreadable-package-json' && warning.file, join(installPath, 'package.json'));
		assert.match(warning?.kind === 'unreadable-package-json' ? warning.reason : '', /not valid JSON/);
		writeFileSync(join(agentDir(), 'settings.json'), '{ "packages": [');
		assert.deepEqual(kinds(await resolve()), ['unreadable-settings']);
	});

	it('follows the override, from the setting or the flag, and ignores an unknown setting value', async () => {
		installNpm(agentDir(), '2.9.1');
		writeSettings(agentDir(), { packages: ['npm:pi-condense'] });
		const setting = await followed({ choice: '2.4.0' });
		assert.equal(setting.release, '2.4.0');
		assert.equal(setting.how, 'override');
		assert.deepEqual(setting.override, { release: '2.4.0', origin: 'setting' });
		assert.equal(setting.installed?.version, '2.9.1');
		assert.deepEqual((await followed({ choice: '2.0.0', origin: 'flag' })).override, { release: '2.0.0', origin: 'flag' });
		assert.equal((await followed({ choice: 'auto' })).release, '2.9.1');
		const unknown = await followed({ choice: '2.10.0' });
		assert.equal(unknown.release, '2.9.1');
		assert.deepEqual(unknown.warnings, [{ kind: 'unknown-override', value: '2.10.0' }]);
	});
});
