import assert from 'node:assert/strict';
import { compileGlob } from '../../../../src/engine/condense/protection/globMatcher';
import { protectionCheck } from '../../../../src/engine/condense/protection/protectionRules';

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
];

describe('compileGlob (protectedPaths dialect)', () => {
	for (const [pattern, path, expected] of cases) {
		it(`${pattern} ${expected ? 'matches' : 'does not match'} ${path}`, () => {
			assert.equal(compileGlob(pattern)(path), expected);
		});
	}
});

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
