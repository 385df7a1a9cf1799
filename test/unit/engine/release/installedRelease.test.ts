import assert from 'node:assert/strict';
import {
	followRelease, identifyCopy, notInstalledText, piWhereLine, releaseLine, releaseRules, releaseStatusLines, releaseWarningText,
	type InstalledCopy, type PiCondenseName, type ReleaseWarning,
} from '../../../../src/engine/release';

const HOME = '/home/ada';
const AGENT = `${HOME}/.pi/agent`;

function npmCopy(version: string, overrides: Partial<InstalledCopy> = {}, name: PiCondenseName = 'pi-condense'): InstalledCopy {
	const installPath = `${AGENT}/npm/node_modules/pi-condense`;
	const copy = identifyCopy(name, version, {
		scope: 'user', foundBy: 'packages', sourceKind: 'npm', entry: 'npm:pi-condense', settingsFile: `${AGENT}/settings.json`,
		installPath, packageJsonPath: `${installPath}/package.json`,
	});
	assert.ok(copy);
	return { ...copy, ...overrides };
}

const searched = [`${AGENT}/settings.json`, `${AGENT}/extensions`];

describe('which release is followed', () => {
	it('follows the first copy, with its rules, and says where it was found', () => {
		const resolution = followRelease({ copies: [npmCopy('2.9.1')], searched, warnings: [] }, undefined);
		assert.equal(resolution.kind, 'followed');
		assert.equal(resolution.kind === 'followed' && resolution.release, '2.9.1');
		assert.deepEqual(resolution.kind === 'followed' && resolution.rules, releaseRules('2.9.1'));
		assert.equal(resolution.kind === 'followed' && resolution.how, 'packages');
		assert.deepEqual(resolution.warnings, []);
		assert.equal(releaseLine(resolution, HOME), 'pi-condense 2.9.1 (npm, ~/.pi/agent/npm/node_modules/pi-condense)');
		assert.deepEqual(releaseStatusLines(resolution, HOME), [
			'Pi: not found (no pi command on PATH, and none in npm\'s global folder)',
			'pi-condense release: 2.9.1',
			'  installed: pi-condense 2.9.1',
			'  found by: user packages entry (npm) "npm:pi-condense" in ~/.pi/agent/settings.json',
			'  folder: ~/.pi/agent/npm/node_modules/pi-condense',
			'  package.json: ~/.pi/agent/npm/node_modules/pi-condense/package.json',
		]);
	});

	it('follows a newer version as the newest known release, with a warning', () => {
		const resolution = followRelease({ copies: [npmCopy('2.11.3')], searched, warnings: [] }, undefined);
		assert.equal(resolution.kind === 'followed' && resolution.release, '2.9.1');
		assert.equal(releaseLine(resolution, HOME), 'pi-condense 2.11.3 as 2.9.1 (npm, ~/.pi/agent/npm/node_modules/pi-condense)');
		assert.deepEqual(resolution.warnings.map((w) => w.kind), ['newer-than-known']);
	});

	it('follows pi-context-prune 1.3.1 as 2.0.0 without a warning, and older ones as a guess', () => {
		const fork = (version: string) => npmCopy(version, {}, 'pi-context-prune');
		const covered = followRelease({ copies: [fork('1.3.1')], searched, warnings: [] }, undefined);
		assert.equal(covered.kind === 'followed' && covered.release, '2.0.0');
		assert.deepEqual(covered.warnings, []);
		assert.match(releaseLine(covered), /^pi-context-prune 1\.3\.1 as 2\.0\.0 \(npm, /);
		const older = followRelease({ copies: [fork('1.2.0')], searched, warnings: [] }, undefined);
		assert.deepEqual(older.warnings.map((w) => w.kind), ['uncovered-version']);
	});

	it('reports several copies, following the first by Pi\'s precedence', () => {
		const project = npmCopy('2.4.0', { foundBy: 'extensions', scope: 'project', sourceKind: 'local', installPath: '/work/app/vendor/pi-condense' });
		const resolution = followRelease({ copies: [project, npmCopy('2.9.1')], searched, warnings: [] }, undefined);
		assert.equal(resolution.kind === 'followed' && resolution.release, '2.4.0');
		assert.equal(resolution.kind === 'followed' && resolution.how, 'extensions');
		assert.equal(releaseLine(resolution, HOME), 'pi-condense 2.4.0 (project extensions, /work/app/vendor/pi-condense; +1 more copy)');
		const lines = releaseStatusLines(resolution, HOME);
		assert.ok(lines.includes('  also loaded: pi-condense 2.9.1 (npm, ~/.pi/agent/npm/node_modules/pi-condense)'));
		assert.ok(lines.some((line) => /warning: Pi loads 2 copies of pi-condense; following pi-condense 2\.4\.0 .* a guess/.test(line)));
	});

	it('lets the override win and says so, with or without an installed copy', () => {
		const over = followRelease({ copies: [npmCopy('2.9.1')], searched, warnings: [] }, { release: '2.4.0', origin: 'setting' });
		assert.equal(over.kind === 'followed' && over.release, '2.4.0');
		assert.equal(over.kind === 'followed' && over.how, 'override');
		assert.deepEqual(over.kind === 'followed' && over.rules, releaseRules('2.4.0'));
		assert.equal(releaseLine(over, HOME), 'pi-condense 2.4.0 (piCondense.release; installed: pi-condense 2.9.1)');
		const none = followRelease({ copies: [], searched, warnings: [] }, { release: '2.0.0', origin: 'flag' });
		assert.equal(none.kind, 'followed');
		assert.equal(releaseLine(none), 'pi-condense 2.0.0 (--release; none found in Pi\'s settings)');
	});

	it('names the Pi found beside the release, and says when it is newer than the Pi this extension knows', () => {
		const pi = { name: '@earendil-works/pi-coding-agent', version: '1.6.0', packageJsonPath: '/usr/lib/node_modules/@earendil-works/pi-coding-agent/package.json', foundBy: 'path' } as const;
		const resolution = followRelease({ copies: [npmCopy('2.9.1')], searched, warnings: [], pi }, undefined);
		assert.equal(releaseLine(resolution, HOME), 'Pi 1.6.0 · pi-condense 2.9.1 (npm, ~/.pi/agent/npm/node_modules/pi-condense)');
		assert.equal(releaseStatusLines(resolution, HOME)[0], 'Pi: 1.6.0 (@earendil-works/pi-coding-agent, /usr/lib/node_modules/@earendil-works/pi-coding-agent/package.json, found by pi on VS Code\'s PATH)');
		assert.equal(piWhereLine({ ...pi, foundBy: 'login-shell-path' }, undefined, (path) => path), 'Pi 1.6.0 · /usr/lib/node_modules/@earendil-works/pi-coding-agent · found by pi on your login shell\'s PATH, as a terminal finds it');
		const none = followRelease({ copies: [], searched, warnings: [], pi: { ...pi, version: '1.7.2', foundBy: 'npm-global' } }, undefined);
		assert.equal(releaseLine(none), 'Pi 1.7.2 · pi-condense not installed in Pi (pi install npm:pi-condense)');
		assert.match(releaseStatusLines(none, HOME)[0] ?? '', /^Pi: 1\.7\.2 \(.*found in npm's global folder; newer than Pi 1\.6\.0, the newest Pi this extension knows/);
		const old = followRelease({ copies: [], searched, warnings: [], pi: { ...pi, name: '@mariozechner/pi-coding-agent', version: '0.73.1' } }, undefined);
		assert.match(releaseLine(old), /^Pi 0\.73\.1 · /);
		assert.doesNotMatch(releaseStatusLines(old, HOME)[0] ?? '', /newer/);
	});

	it('says how to install when nothing is found', () => {
		const none = followRelease({ copies: [], searched, warnings: [] }, undefined);
		assert.equal(none.kind, 'not-installed');
		assert.equal(releaseLine(none), 'pi-condense not installed in Pi (pi install npm:pi-condense)');
		assert.match(notInstalledText(), /`pi install npm:pi-condense`/);
		assert.deepEqual(releaseStatusLines(none, HOME).slice(0, 4), [
			'Pi: not found (no pi command on PATH, and none in npm\'s global folder)',
			'pi-condense: not installed in Pi',
			'  searched: ~/.pi/agent/settings.json',
			'  searched: ~/.pi/agent/extensions',
		]);
	});

	it('words every warning with the file or version it is about', () => {
		const pinned = npmCopy('2.9.1', { entry: 'npm:pi-condense@2.4.0' });
		const clone = npmCopy('2.9.1', { sourceKind: 'git', entry: 'git:github.com/jjuraszek/pi-condense@v2.4.0' });
		const cases: [ReleaseWarning, RegExp][] = [
			[{ kind: 'pinned-version-differs', copy: pinned, pinned: '2.4.0' },
				/^~\/\.pi\/agent\/settings\.json pins npm:pi-condense@2\.4\.0 but 2\.9\.1 is installed; following 2\.9\.1 until Pi installs 2\.4\.0 \(at its next start-up\)\.$/],
			[{ kind: 'pinned-version-differs', copy: clone, pinned: '2.4.0' }, /\(pi update moves a pinned clone\)\.$/],
			[{ kind: 'configured-not-installed', entry: 'npm:pi-condense', settingsFile: `${AGENT}/settings.json`, installPath: `${AGENT}/npm/node_modules/pi-condense`, sourceKind: 'npm' },
				/lists npm:pi-condense but there is nothing at ~\/\.pi\/agent\/npm\/node_modules\/pi-condense yet \(Pi installs it at its next start-up\)\.$/],
			[{ kind: 'configured-not-installed', entry: '../pi-condense', settingsFile: `${AGENT}/settings.json`, installPath: `${HOME}/.pi/pi-condense`, sourceKind: 'local' },
				/there is nothing at ~\/\.pi\/pi-condense\.$/],
			[{ kind: 'unreadable-package-json', file: `${AGENT}/npm/node_modules/pi-condense/package.json`, reason: 'not valid JSON (Unexpected end)' },
				/^~\/\.pi\/agent\/npm\/node_modules\/pi-condense\/package\.json cannot be read: not valid JSON \(Unexpected end\)$/],
			[{ kind: 'unreadable-settings', file: `${AGENT}/settings.json`, reason: 'not valid JSON at line 2, column 1: x' }, /Pi ignores it too\.$/],
			[{ kind: 'trust-undetermined', projectDir: '/work/app', trustFile: `${AGENT}/trust.json`, reason: 'there is no trust.json' },
				/^~\/\.pi\/agent\/trust\.json has no decision for \/work\/app \(there is no trust\.json\): its \.pi settings are not followed until Pi trusts the project/],
			[{ kind: 'workspace-restricted', projectDir: '/work/app' }, /^VS Code does not trust this workspace: the \.pi settings of \/work\/app are not followed\./],
			[{ kind: 'global-root-not-looked-up', command: 'pnpm', settingsFile: `${AGENT}/settings.json` },
				/^~\/\.pi\/agent\/settings\.json sets npmCommand "pnpm"; Pi Condense runs no command a settings file names/],
			[{ kind: 'project-untrusted', projectDir: '/work/app', decidedBy: '/work' }, /^\/work\/app is not trusted \(entry \/work in trust\.json\)/],
			[{ kind: 'unknown-override', value: '2.10.0' }, /^piCondense\.release is "2\.10\.0", which is not a known release: ignored/],
			[{ kind: 'uncovered-version', copy: npmCopy('1.2.0', {}, 'pi-context-prune'), followedAs: '2.0.0' },
				/^pi-context-prune 1\.2\.0 is not a release this extension covers; it is followed as 2\.0\.0, a guess\.$/],
		];
		for (const [warning, text] of cases) {
			assert.match(releaseWarningText(warning, HOME), text, warning.kind);
		}
	});

	it('says, when no Pi is found, the PATH VS Code has, what the login shell said, and what to do', () => {
		const piNotFound = { hostPath: ['/usr/bin', '/bin'], loginShell: { kind: 'read', shell: '/bin/zsh', folders: [`${HOME}/.local/bin`, '/usr/bin'] }, detail: undefined } as const;
		const none = followRelease({ copies: [], searched, warnings: [], piNotFound }, undefined);
		const line = releaseStatusLines(none, HOME)[0] ?? '';
		assert.equal(line, 'Pi: not found. No pi command on VS Code\'s PATH (/usr/bin:/bin), nor on your login shell\'s PATH (/bin/zsh -l: ~/.local/bin:/usr/bin), and none in npm\'s global folder. '
			+ 'Install Pi (npm install -g @earendil-works/pi-coding-agent), or add the folder that holds pi to PATH in your login shell\'s profile (~/.profile, ~/.zprofile or ~/.bash_profile) and reload VS Code, or start VS Code from a terminal where pi runs (code .).');
		assert.match(piWhereLine(undefined, { ...piNotFound, loginShell: { kind: 'unavailable', reason: 'the workspace is not trusted' } }, (path) => path),
			/^Pi not found: No pi command on VS Code's PATH, your login shell's PATH was not read \(the workspace is not trusted\), and none in npm's global folder\. Show Status lists the folders searched and what to do\.$/);
	});
});
