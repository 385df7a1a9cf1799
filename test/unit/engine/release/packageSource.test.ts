import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { KNOWN_RELEASES, namesPiCondense, parsePackageSource, pinnedVersion, parseReleaseChoice } from '../../../../src/engine/release';
import { repoRoot } from '../../../support/paths';

describe('Pi package sources', () => {
	it('splits npm specs into a name and an optional version, as Pi does', () => {
		assert.deepEqual(parsePackageSource('npm:pi-condense'), { type: 'npm', name: 'pi-condense', version: undefined });
		assert.deepEqual(parsePackageSource('npm:pi-condense@2.4.0'), { type: 'npm', name: 'pi-condense', version: '2.4.0' });
		assert.deepEqual(parsePackageSource(' npm: @scope/x@^1.2.0 '), { type: 'npm', name: '@scope/x', version: '^1.2.0' });
		assert.deepEqual(parsePackageSource('npm:@scope/x'), { type: 'npm', name: '@scope/x', version: undefined });
	});

	it('parses git shorthand, scp-like and protocol URLs, keeping the ref out of the path', () => {
		const git = (host: string, path: string, ref?: string) => ({ type: 'git', host, path, ref });
		assert.deepEqual(parsePackageSource('git:github.com/jjuraszek/pi-context-prune@v1.3.1'), git('github.com', 'jjuraszek/pi-context-prune', 'v1.3.1'));
		assert.deepEqual(parsePackageSource('git:git@github.com:jjuraszek/pi-condense.git@v2.4.0'), git('github.com', 'jjuraszek/pi-condense', 'v2.4.0'));
		assert.deepEqual(parsePackageSource('https://github.com/jjuraszek/pi-condense'), git('github.com', 'jjuraszek/pi-condense'));
		assert.deepEqual(parsePackageSource('ssh://git@gitlab.example.com:2222/team/tools/pi-condense.git@main'), git('gitlab.example.com', 'team/tools/pi-condense', 'main'));
		assert.deepEqual(parsePackageSource('git://example.org/a/b'), git('example.org', 'a/b'));
	});

	it('treats everything else as a local path, bare names and github: included', () => {
		for (const text of ['pi-condense', '../pi-condense', '~/src/pi-condense', 'github:jjuraszek/pi-condense', '/abs/dir', 'git:nohost']) {
			assert.deepEqual(parsePackageSource(text), { type: 'local', path: text }, text);
		}
	});

	it('knows exact pinned versions and which entries name pi-condense', () => {
		assert.equal(pinnedVersion(parsePackageSource('npm:pi-condense@2.4.0')), '2.4.0');
		assert.equal(pinnedVersion(parsePackageSource('npm:pi-condense@^2.4.0')), undefined);
		assert.equal(pinnedVersion(parsePackageSource('npm:pi-condense')), undefined);
		assert.equal(pinnedVersion(parsePackageSource('git:github.com/jjuraszek/pi-context-prune@v1.3.1')), '1.3.1');
		assert.equal(pinnedVersion(parsePackageSource('git:github.com/jjuraszek/pi-condense@main')), undefined);
		assert.equal(namesPiCondense(parsePackageSource('npm:pi-condense@2.4.0')), true);
		assert.equal(namesPiCondense(parsePackageSource('git:github.com/jjuraszek/pi-context-prune@v1.3.1')), true);
		assert.equal(namesPiCondense(parsePackageSource('../checkouts/pi-condense/')), true);
		assert.equal(namesPiCondense(parsePackageSource('npm:pi-powerline-footer')), false);
	});
});

describe('the release choice (piCondense.release, --release)', () => {
	it('accepts auto and the known releases, and lists them otherwise', () => {
		assert.deepEqual(parseReleaseChoice('auto'), { ok: true, choice: 'auto' });
		assert.deepEqual(parseReleaseChoice(''), { ok: true, choice: 'auto' });
		assert.deepEqual(parseReleaseChoice('2.4.0'), { ok: true, choice: '2.4.0' });
		assert.deepEqual(parseReleaseChoice('v2.9.1'), { ok: true, choice: '2.9.1' });
		const wrong = parseReleaseChoice('2.10.0');
		assert.equal(wrong.ok, false);
		assert.match(wrong.ok ? '' : wrong.message, /^unknown pi-condense release "2\.10\.0": use auto or one of 2\.0\.0, 2\.0\.1, .*, 2\.9\.0, 2\.9\.1$/);
		assert.equal(parseReleaseChoice(42).ok, false);
	});

	it('offers exactly auto and the known releases in the piCondense.release setting, each described', () => {
		const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
			contributes: { configuration: { properties: Record<string, { enum?: string[]; enumDescriptions?: string[]; default?: string; scope?: string }> } };
		};
		const setting = manifest.contributes.configuration.properties['piCondense.release'];
		assert.deepEqual(setting?.enum, ['auto', ...KNOWN_RELEASES]);
		assert.equal(setting?.enumDescriptions?.length, KNOWN_RELEASES.length + 1);
		assert.equal(setting?.default, 'auto');
		assert.equal(setting?.scope, 'machine');
		for (const value of setting?.enum ?? []) {
			assert.equal(parseReleaseChoice(value).ok, true, value);
		}
	});
});
