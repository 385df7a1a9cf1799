/** Which pi-condense Pi loads for a project: the user and project scopes, trust, npm's folders, pins and versions. */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { detectRelease } from '../../../../src/node/release/detectRelease';
import { cloneGit, installNpm, writeJson, writePackage, writeSettings } from '../../../support/piInstall';
import { useReleaseWorld } from './releaseWorld';

describe('finding the pi-condense Pi loads (spec §8): scopes, trust, pins and versions', () => {
	const { home, agentDir, cwd, projectPi, globalRoot, piPath, globalAsked, followed, trust, kinds } = useReleaseWorld();

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
		assert.equal(globalAsked(), 0);
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
		assert.equal(globalAsked(), 1);
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
});
