/**
 * Where tests find the repository and the shared reference material (read-only): `../shared` next
 * to the repository, or the folder named by `PI_CONDENSE_SHARED_DIR`.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

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
export const sharedDir = resolve(process.env['PI_CONDENSE_SHARED_DIR'] ?? join(repoRoot, '..', 'shared'));
export const realSessionsDir = join(sharedDir, 'real-sessions');
export const piCondenseSessionsDir = join(sharedDir, 'pi-condense-sessions');

/** Every real Pi session file in ../shared/real-sessions (the golden file included). */
export function realSessionFiles(): string[] {
	return readdirSync(realSessionsDir).filter((name) => name.endsWith('.jsonl')).sort().map((name) => join(realSessionsDir, name));
}
