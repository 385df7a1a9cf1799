import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FollowedRelease, ReleaseResolution } from '../../../../src/engine/release';
import { detectRelease } from '../../../../src/node/release/detectRelease';
import { applyChoice, readChoice } from '../../../../src/node/release/resolveRelease';
import { cloneGit, installNpm, writeJson, writePackage, writeSettings } from '../../../support/piInstall';
import { useTempDir } from '../../../support/tempDirs';

describe('finding the pi-condense Pi loads (spec §8)', () => {
	const temp = useTempDir('pi-release');
	const home = () => join(temp(), 'home');
	const agentDir = () => join(home(), '.pi', 'agent');
	const cwd = () => join(home(), 'work', 'app');
	const projectPi = () => join(cwd(), '.pi');
	const globalRoot = () => join(temp(), 'usr', 'lib', 'node_modules');
	let globalAsked = 0;

	/** A PATH whose `pi` is an installed Pi 1.6.0, so that finding Pi never looks in npm's global folder here. */
	const piPath = () => join(temp(), 'bin');

	beforeEach(() => {
		globalAsked = 0;
		mkdirSync(agentDir(), { recursive: true });
		mkdirSync(cwd(), { recursive: true });
		const pi = join(temp(), 'pi-install', 'node_modules', '@earendil-works', 'pi-coding-agent');
		mkdirSync(join(pi, 'dist'), { recursive: true });
		writeJson(join(pi, 'package.json'), { name: '@earendil-works/pi-coding-agent', version: '1.6.0' });
		writeFileSync(join(pi, 'dist', 'cli.js'), '#!/usr/bin/env node\n', { mode: 0o755 });
		mkdirSync(piPath(), { recursive: true });
		symlinkSync(join(pi, 'dist', 'cli.js'), join(piPath(), 'pi'));
	});

	async function resolve(options: { cwd?: string | undefined; choice?: unknown; origin?: 'setting' | 'flag'; restricted?: boolean } = {}): Promise<ReleaseResolution> {
		const { detection } = await detectRelease({
			agentDir: agentDir(),
			cwd: 'cwd' in options ? options.cwd : cwd(),
			home: home(),
			globalNpmRoot: () => {
				globalAsked++;
				return Promise.resolve({ kind: 'found', root: globalRoot(), from: 'test' });
			},
			projectSettingsAllowed: options.restricted !== true,
			env: { PATH: piPath() },
		});
		return applyChoice(detection, readChoice(options.choice, options.origin ?? 'setting'));
	}

	async function followed(options: Parameters<typeof resolve>[0] = {}): Promise<FollowedRelease> {
		const resolution = await resolve(options);
		assert.equal(resolution.kind, 'followed', JSON.stringify(resolution, null, 1));
		return resolution;
	}

	const trust = (decisions: Record<string, boolean>) => writeJson(join(agentDir(), 'trust.json'), decisions);
	const kinds = (resolution: ReleaseResolution) => resolution.warnings.map((warning) => warning.kind);

	it('finds `pi install npm:pi-condense` in the user scope without asking npm', async () => {
		const installPath = installNpm(agentDir(), '2.9.1');
		writeSettings(agentDir(), { packages: ['npm:pi-condense'] });
		const release = await followed();
		assert.equal(release.release, '2.9.1');
		assert.equal(release.how, 'packages');
		assert.deepEqual(release.installed, {
			name: 'pi-condense', version: '2.9.1', match: { kind: 'known', release: '2.9.1' }, scope: 'user', foundBy: 'packages',
			sourceKind: 'npm', entry: 'npm:pi-condense', settingsFile: join(agentDir(), 'settings.json'),
			installPath, packageJsonPath: join(installPath, 'package.json'),
		});
		assert.deepEqual(release.warnings, []);
		assert.equal(globalAsked, 0);
	});

	it('identifies an install by its package.json alone, as the reference agent dirs are set up', async () => {
		writeJson(join(agentDir(), 'npm', 'node_modules', 'pi-condense', 'package.json'), { name: 'pi-condense', version: '2.0.0' });
		writeSettings(agentDir(), { packages: ['npm:pi-condense'] });
		const release = await followed();
		assert.equal(release.release, '2.0.0');
		assert.deepEqual(release.warnings, []);
	});

	it('falls back to npm\'s global folder for user npm entries (Pi 0.73), asking for it only then', async () => {
		const installPath = writePackage(join(globalRoot(), 'pi-condense'), '2.8.0');
		writeSettings(agentDir(), { packages: ['npm:pi-condense'] });
		const release = await followed();
		assert.equal(release.release, '2.8.0');
		assert.equal(release.installed?.installPath, installPath);
		assert.equal(globalAsked, 1);
	});

	it('uses a trusted project\'s npm install, which replaces the user entry of the same package', async () => {
		installNpm(agentDir(), '2.9.1');
		writeSettings(agentDir(), { packages: ['npm:pi-condense'] });
		const installPath = installNpm(projectPi(), '2.4.0');
		writeSettings(projectPi(), { packages: ['npm:pi-condense@2.4.0'] });
		trust({ [cwd()]: true });
		const release = await followed();
		assert.equal(release.release, '2.4.0');
		assert.equal(release.installed?.scope, 'project');
		assert.equal(release.installed?.installPath, installPath);
		assert.equal(release.installed?.settingsFile, join(projectPi(), 'settings.json'));
		assert.deepEqual(release.others, []);
		assert.deepEqual(release.warnings, []);
		// Without a project (or with an empty cwd from a header), only the user scope counts.
		assert.equal((await followed({ cwd: undefined })).release, '2.9.1');
		assert.equal((await followed({ cwd: '' })).release, '2.9.1');
	});

	it('ignores an untrusted project\'s settings, as Pi does; the nearest trust entry decides', async () => {
		installNpm(agentDir(), '2.9.1');
		writeSettings(agentDir(), { packages: ['npm:pi-condense'] });
		installNpm(projectPi(), '2.4.0');
		writeSettings(projectPi(), { packages: ['npm:pi-condense@2.4.0'] });
		trust({ [home()]: true, [join(home(), 'work')]: false });
		const release = await followed();
		assert.equal(release.release, '2.9.1');
		assert.deepEqual(release.warnings, [{ kind: 'project-untrusted', projectDir: cwd(), decidedBy: join(home(), 'work') }]);
		trust({ [join(home(), 'work')]: false, [cwd()]: true });
		assert.equal((await followed()).release, '2.4.0');
	});

	it('ignores the project\'s settings when trust.json has no decision (a session header names any folder), and says so', async () => {
		installNpm(agentDir(), '2.9.1');
		writeSettings(agentDir(), { packages: ['npm:pi-condense'] });
		installNpm(projectPi(), '2.4.0');
		writeSettings(projectPi(), { packages: ['npm:pi-condense'] });
		const release = await followed();
		assert.equal(release.release, '2.9.1');
		assert.deepEqual(kinds(release), ['trust-undetermined']);
		trust({ [cwd()]: true });
		assert.equal((await followed()).release, '2.4.0');
	});

	it('ignores a trusted project\'s settings in a VS Code workspace that is not trusted, and says so', async () => {
		installNpm(agentDir(), '2.9.1');
		writeSettings(agentDir(), { packages: ['npm:pi-condense'] });
		installNpm(projectPi(), '2.4.0');
		writeSettings(projectPi(), { packages: ['npm:pi-condense'] });
		trust({ [cwd()]: true });
		const release = await followed({ restricted: true });
		assert.equal(release.release, '2.9.1');
		assert.deepEqual(release.warnings, [{ kind: 'workspace-restricted', projectDir: cwd() }]);
	});

	it('never follows the npmCommand of a project: it only decides which package manager\'s folder is read', async () => {
		writeSettings(agentDir(), { packages: ['npm:pi-condense'] });
		writeSettings(projectPi(), { npmCommand: ['/bin/sh', '-c', 'touch marker'], packages: ['npm:pi-powerline-footer'] });
		const commands: (readonly string[] | undefined)[] = [];
		await detectRelease({
			agentDir: agentDir(), cwd: cwd(), home: home(), projectSettingsAllowed: true, env: { PATH: piPath() },
			globalNpmRoot: (command) => {
				commands.push(command);
				return Promise.resolve({ kind: 'unknown' });
			},
		});
		assert.deepEqual(commands, [undefined], 'an untrusted project\'s npmCommand is not even read');
	});

	it('keeps quiet about trust when the project\'s settings do not bring pi-condense in', async () => {
		installNpm(agentDir(), '2.9.1');
		writeSettings(agentDir(), { packages: ['npm:pi-condense'] });
		writeSettings(projectPi(), { theme: 'dark', packages: ['npm:pi-powerline-footer'] });
		assert.deepEqual((await followed()).warnings, []);
		trust({ [cwd()]: false });
		assert.deepEqual((await followed()).warnings, []);
	});

	it('compares a pinned version with the installed one', async () => {
		installNpm(agentDir(), '2.4.0');
		writeSettings(agentDir(), { packages: ['npm:pi-condense@2.4.0'] });
		const pinned = await followed();
		assert.equal(pinned.release, '2.4.0');
		assert.deepEqual(pinned.warnings, []);
		installNpm(agentDir(), '2.9.1');
		const differs = await followed();
		assert.equal(differs.release, '2.9.1');
		assert.deepEqual(differs.warnings, [{ kind: 'pinned-version-differs', copy: differs.installed, pinned: '2.4.0' }]);
	});

	it('reads a git clone at <agentDir>/git/<host>/<path>, the ref left out: pi-context-prune 1.3.1 is 2.0.0', async () => {
		const installPath = cloneGit(agentDir(), 'github.com/jjuraszek/pi-context-prune', '1.3.1', 'pi-context-prune');
		writeSettings(agentDir(), { packages: ['git:github.com/jjuraszek/pi-context-prune@v1.3.1'] });
		const release = await followed();
		assert.equal(release.release, '2.0.0');
		assert.deepEqual(release.installed?.match, { kind: 'older', release: '2.0.0', version: '1.3.1' });
		assert.equal(release.installed?.name, 'pi-context-prune');
		assert.equal(release.installed?.sourceKind, 'git');
		assert.equal(release.installed?.installPath, installPath);
		assert.deepEqual(release.warnings, []);
	});

	it('follows a version newer than 2.9.1 as 2.9.1, with a warning', async () => {
		cloneGit(agentDir(), 'github.com/jjuraszek/pi-condense', '2.11.3');
		writeSettings(agentDir(), { packages: ['https://github.com/jjuraszek/pi-condense'] });
		const release = await followed();
		assert.equal(release.release, '2.9.1');
		assert.equal(release.installed?.version, '2.11.3');
		assert.deepEqual(kinds(release), ['newer-than-known']);
	});

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
