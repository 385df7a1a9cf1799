/**
 * The realistic large sessions of the benchmark: real sessions repeated with fresh ids by
 * make-big-session.py (the generator of the reference material, copied here), one without
 * pi-condense entries (a real Pi session without compactions, so all of it is in the context) and
 * one full of them (a session real pi-condense 2.9.1 pruned: summaries, index entries, compressed
 * chains, renumbered per repetition so each copy resolves on its own). Real sessions have many small lines, which cost more objects per MB than
 * the synthetic session's large ones. Generated once into `.bench/` (git-ignored).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { piCondenseSessionsDir, realSessionsDir, repoRoot } from '../support/paths';

export interface RealisticSession {
	readonly label: string;
	readonly file: string;
	readonly pruned: boolean;
	/** The real session it repeats: small, for warming up. */
	readonly source: string;
}

/** Bump when the sources or the generator change, so stale cached files are regenerated. */
const generatorVersion = 2;

const SOURCES = [
	{ label: 'real Pi session, no pi-condense entries', name: 'plain', pruned: false, source: join(realSessionsDir, 'large-session.migrated-v3.jsonl') },
	{ label: 'pruned by real pi-condense 2.9.1', name: 'pruned', pruned: true, source: join(piCondenseSessionsDir, 'large-bulk-2.9.1', 'session.jsonl') },
] as const;

export function realisticSessions(megabytes: number): RealisticSession[] {
	const dir = join(repoRoot, '.bench');
	mkdirSync(dir, { recursive: true });
	return SOURCES.map(({ label, name, pruned, source }) => {
		const file = join(dir, `realistic-${name}-${megabytes}mb-v${generatorVersion}.jsonl`);
		const marker = `${file}.ok`;
		if (!existsSync(file) || !existsSync(marker)) {
			const said = execFileSync('python3', [join(repoRoot, 'test', 'bench', 'make-big-session.py'), source, file, String(megabytes)], { encoding: 'utf8' });
			writeFileSync(marker, said);
		}
		return { label, file, pruned, source };
	});
}
