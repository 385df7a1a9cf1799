/**
 * Where tests find the repository and the reference sessions (test/fixtures/, see its README): the
 * real Pi sessions in place, the pi-condense reference folders complete (assembled on first use
 * from the files the repository stores once, see referenceFolders.mjs).
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { assembleReferenceFolders, realSessionsFolder } from './referenceFolders.mjs';

function findRepoRoot(start: string): string {
	let dir = start;
	for (;;) {
		const manifest = join(dir, 'package.json');
		if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'pi-condense-vscode') {
			return dir;
		}
		const parent = dirname(dir);
		if (parent === dir) {
			throw new Error(`pi-condense-vscode repository not found above ${start}`);
		}
		dir = parent;
	}
}

export const repoRoot = findRepoRoot(__dirname);
/** Real Pi sessions (the pi-mono fixtures, their v3 migrations, and Pi's all-entry-types golden file). */
export const realSessionsDir = realSessionsFolder(repoRoot);
/** Sessions written by real Pi + real pi-condense: one folder each (`basic`, `large-bulk`, `recovery-2.9.1`, …). */
export const piCondenseSessionsDir = assembleReferenceFolders(repoRoot);

/** Every real Pi session file in test/fixtures/real-sessions (the golden file included). */
export function realSessionFiles(): string[] {
	return readdirSync(realSessionsDir).filter((name) => name.endsWith('.jsonl')).sort().map((name) => join(realSessionsDir, name));
}
