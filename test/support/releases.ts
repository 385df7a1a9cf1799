/**
 * Test support: pi-condense releases by name, and the release each reference session folder was
 * written by (read from the reference folder's README, so a new folder needs no test change).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { releaseDefaults } from '../../src/engine/config/defaults';
import type { ContextPruneConfig } from '../../src/engine/config/types';
import { LATEST_RELEASE, matchRelease, releaseRules, type ReleaseRules, type ReleaseVersion } from '../../src/engine/release/releases';
import { piCondenseSessionsDir } from './paths';

export const LATEST: ReleaseRules = releaseRules(LATEST_RELEASE);
export const R200: ReleaseRules = releaseRules('2.0.0');

/**
 * The release the flush tests read our own flush's entries as: our writer still writes 2.0.0's
 * shapes (bare ids, no result timestamps), which releases up to 2.5.0 read natively; 2.5.0 also
 * reads the summarizer timeouts and has no thinking strip. Writing per release comes later.
 */
export const WRITER_RELEASE: ReleaseRules = releaseRules('2.5.0');

export function rules(version: ReleaseVersion): ReleaseRules {
	return releaseRules(version);
}

/** The release's defaults (the latest release unless one is given). */
export function defaults(release: ReleaseRules = LATEST): ContextPruneConfig {
	return releaseDefaults(release);
}

/** Reference folder → the pi-condense release that wrote it, from the README's "Folders by pi-condense release" table. */
export function referenceReleases(): ReadonlyMap<string, ReleaseRules> {
	const readme = readFileSync(join(piCondenseSessionsDir, 'README.md'), 'utf8');
	const releases = new Map<string, ReleaseRules>();
	for (const line of readme.split('\n')) {
		const cells = line.split('|').map((cell) => cell.trim());
		const match = cells[2] === undefined ? undefined : matchRelease(cells[2]);
		if (match?.kind !== 'known') {
			continue;
		}
		for (const [, folder] of (cells[1] ?? '').matchAll(/`([^`/]+)\/?`/g)) {
			if (folder !== undefined) {
				releases.set(folder, releaseRules(match.release));
			}
		}
	}
	return releases;
}
