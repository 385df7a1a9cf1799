/**
 * Every rule of a release is read somewhere in the source: a field of `ReleaseRules` that nothing
 * reads is a difference between releases that we claim to follow and do not (as `budgetWindowCap`
 * once was: every release got 2.8.0's 300k cap). Reads are `.field`, or `field` in a destructuring
 * of rules, anywhere in src/ outside releases.ts.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../../support/paths';

function sourceFiles(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const path = join(dir, entry.name);
		return entry.isDirectory() ? sourceFiles(path) : entry.name.endsWith('.ts') ? [path] : [];
	});
}

describe('ReleaseRules', () => {
	it('has no field that the source never reads', () => {
		const releases = join(repoRoot, 'src', 'engine', 'release', 'releases.ts');
		const text = readFileSync(releases, 'utf8');
		const body = /export interface ReleaseRules \{([\s\S]*?)\n\}/.exec(text)?.[1] ?? '';
		const fields = [...body.matchAll(/^\s*readonly (\w+)\??:/gm)].map((match) => match[1] as string);
		assert.ok(fields.length > 10, `found the fields: ${fields.join(', ')}`);
		const sources = sourceFiles(join(repoRoot, 'src')).filter((path) => path !== releases)
			.map((path) => readFileSync(path, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '')).join('\n');
		const unread = fields.filter((field) => field !== 'version' && !new RegExp(`\\.${field}\\b|[{,]\\s*${field}\\s*[,}:]`).test(sources));
		assert.deepEqual(unread, []);
	});
});
