import assert from 'node:assert/strict';
import { compileGlob } from '../../../../src/engine/condense/protection/globMatcher';
import { protectionCheck } from '../../../../src/engine/condense/protection/protectionRules';
import { describeLinearTime } from '../../../support/linearTimeSuite';
import { Random } from '../../../support/random';

const cases: [pattern: string, path: string, expected: boolean][] = [
	// The default pattern.
	['**/skills/**/*.md', '/home/u/.agents/skills/sdd/SKILL.md', true],
	['**/skills/**/*.md', 'skills/SKILL.md', true],
	['**/skills/**/*.md', 'skills/a/b/c/ref.md', true],
	['**/skills/**/*.md', 'skills.md', false],
	['**/skills/**/*.md', 'my-skills/x.md', false],
	['**/skills/**/*.md', '/p/skills/x.mdx', false],
	// `**/` also matches zero directories.
	['**/SKILL.md', 'SKILL.md', true],
	['**/SKILL.md', 'a/b/SKILL.md', true],
	['**/SKILL.md', 'NOTSKILL.md', false],
	['a/**/b', 'a/b', true],
	['a/**/b', 'a/x/y/b', true],
	// `**` alone crosses segments.
	['src/**', 'src/a/b.ts', true],
	['src/**', 'src/', true],
	['**', 'anything/at/all', true],
	// `*` and `?` stay within a segment.
	['src/*.ts', 'src/a.ts', true],
	['src/*.ts', 'src/x/a.ts', false],
	['src/*.ts', 'src/.ts', true],
	['src/?.ts', 'src/a.ts', true],
	['src/?.ts', 'src/ab.ts', false],
	['src?a.ts', 'src/a.ts', false],
	// Anchored at both ends.
	['src/*.ts', 'x/src/a.ts', false],
	['src/*.ts', 'src/a.tsx', false],
	// Backslashes in the path are read as slashes.
	['**/skills/**/*.md', 'C:\\Users\\u\\skills\\sdd\\SKILL.md', true],
	// Case-sensitive.
	['**/skills/**/*.md', 'Skills/x.md', false],
	['**/*.MD', 'a/x.md', false],
	// Everything else is literal.
	['a+b(c).md', 'a+b(c).md', true],
	['a+b(c).md', 'aab(c).md', false],
	['[ab].md', '[ab].md', true],
	['[ab].md', 'a.md', false],
	['{a,b}.md', '{a,b}.md', true],
	['{a,b}.md', 'a.md', false],
	['*.md', 'amd', false],
	['^$.md', '^$.md', true],
	['a|b', 'a', false],
	// A bare `**` (not followed by `/`) is pi-condense's `.*`: it crosses `/`, but not a line break.
	['src/**', 'src/a\nb.ts', false],
	['src/**', 'src/a\rb', false],
	['src/**', 'src/a\u2028b', false],
	['a**b', 'a/x/y/b', true],
	['a**b', 'ab', true],
	// `**/` is any run of whole directories, line breaks included; `*` and `?` take them too.
	['**/x.md', 'a\nb/x.md', true],
	['*.md', 'a\nb.md', true],
	['?.md', '\n.md', true],
	// `**/` glued to a segment: anything ending in `/` in between.
	['x**/y', 'x/y', true],
	['x**/y', 'xab/cd/y', true],
	['x**/y', 'xy', true],
	['x**/y', 'x/y/', false],
	// A trailing `/**` needs the slash; `***` is `**` then `*`.
	['src/**', 'src', false],
	['src/**', 'src/', true],
	['***.md', 'a/b.md', true],
	['***/x', 'a/b/x', true],
	['a/***/x', 'a/x', false],
	// A pattern backslash is a literal backslash, which a normalized path never holds.
	['a\\b', 'a\\b', false],
	['a\\b', 'a/b', false],
	// Matching is per UTF-16 code unit, as a JavaScript regular expression without the u flag.
	['?', '\u{1F600}', false],
	['??', '\u{1F600}', true],
	['', '', true],
	['', 'a', false],
];

describe('compileGlob (protectedPaths dialect)', () => {
	for (const [pattern, path, expected] of cases) {
		it(`${pattern} ${expected ? 'matches' : 'does not match'} ${path}`, () => {
			assert.equal(compileGlob(pattern)(path), expected);
		});
	}
});

/**
 * pi-condense's own translation of the dialect into a regular expression (the reference the matcher
 * must agree with): `**` + `/` is `(?:[^/]*\/)*`, a bare `**` is `.*` (no `s` flag), `*` is `[^/]*`,
 * `?` is `[^/]`, everything else is escaped; the path has `\` turned into `/` first.
 */
function referenceMatcher(pattern: string): (path: string) => boolean {
	let source = '';
	for (let i = 0; i < pattern.length; i++) {
		const char = pattern.charAt(i);
		if (char === '*' && pattern.charAt(i + 1) === '*') {
			source += pattern.charAt(i + 2) === '/' ? '(?:[^/]*/)*' : '.*';
			i += pattern.charAt(i + 2) === '/' ? 2 : 1;
		} else if (char === '*') {
			source += '[^/]*';
		} else if (char === '?') {
			source += '[^/]';
		} else {
			source += char.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
		}
	}
	const regex = new RegExp(`^${source}$`);
	return (path) => regex.test(path.replace(/\\/g, '/'));
}

describe('compileGlob against pi-condense\'s regular expression (seeded, 20,000 pairs)', () => {
	it('agrees on every generated pattern and path', () => {
		const random = new Random(1407);
		const patternParts = ['*', '**', '**/', '?', '/', 'a', 'b', '.md', 'skills', '\\', '.', '-', '(', '['];
		const pathParts = ['a', 'b', '/', '//', '.md', 'skills', '\\', '\n', '\r', '\u2028', 'x.md', '*', '?', '.', ' ', '\u{1F600}'];
		let matched = 0;
		for (let i = 0; i < 2000; i++) {
			const pattern = Array.from({ length: random.int(0, 7) }, () => random.pick(patternParts)).join('');
			const matcher = compileGlob(pattern);
			const reference = referenceMatcher(pattern);
			for (let j = 0; j < 10; j++) {
				// Half the paths are built from the pattern itself, so that many of them match.
				const path = random.chance(0.5)
					? Array.from({ length: random.int(0, 10) }, () => random.pick(pathParts)).join('')
					: pattern.replace(/\*\*\/|\*\*|\*|\?/g, () => Array.from({ length: random.int(0, 3) }, () => random.pick(pathParts)).join(''));
				const expected = reference(path);
				matched += expected ? 1 : 0;
				assert.equal(matcher(path), expected, `${JSON.stringify(pattern)} on ${JSON.stringify(path)}`);
			}
		}
		assert.ok(matched > 2000, `enough matching pairs to mean something (${matched})`);
	});
});

describeLinearTime('compileGlob in linear time on hostile paths', 'glob');

describe('protectionCheck', () => {
	const check = protectionCheck({ protectedTools: ['todoread'], protectedPaths: ['**/skills/**/*.md'] });

	it('protects by tool name whatever the arguments', () => {
		assert.equal(check('todoread', {}), true);
		assert.equal(check('todoread', { path: 'src/a.ts' }), true);
	});

	it('protects by a string args.path', () => {
		assert.equal(check('read', { path: 'x/skills/s/SKILL.md' }), true);
		assert.equal(check('read', { path: 'src/a.ts' }), false);
	});

	it('never protects a missing or non-string path', () => {
		assert.equal(check('read', {}), false);
		assert.equal(check('read', { path: ['x/skills/a.md'] }), false);
		assert.equal(check('read', { file_path: 'x/skills/a.md' }), false);
		assert.equal(check('read', null), false);
	});

	it('protects nothing with empty rules', () => {
		assert.equal(protectionCheck({ protectedTools: [], protectedPaths: [] })('read', { path: 'skills/a.md' }), false);
	});
});
