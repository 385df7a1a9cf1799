/**
 * Test support: pi-condense releases by name, and the release each reference session folder was
 * written by (read from the fixtures' manifest, so a new folder needs no test change).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { releaseDefaults } from '../../src/engine/config/defaults';
import type { ContextPruneConfig } from '../../src/engine/config/types';
import { LATEST_RELEASE, matchRelease, releaseRules, type ReleaseRules } from '../../src/engine/release/releases';
import { repoRoot } from './paths';

export const LATEST: ReleaseRules = releaseRules(LATEST_RELEASE);
export const R200: ReleaseRules = releaseRules('2.0.0');

/**
 * The release pinned by flush tests that are about something else than a release difference (the
 * writer, crash safety, dedup, triggers): 2.5.0, which reads the summarizer timeouts and has no
 * thinking strip. What differs per release is tested per release (releaseWriteMatrix, the
 * reference replay); the fake agent dir installs this release unless a test names another.
 */
export const WRITER_RELEASE: ReleaseRules = releaseRules('2.5.0');

/** The release's defaults (the latest release unless one is given). */
export function defaults(rules: ReleaseRules = LATEST): ContextPruneConfig {
	return releaseDefaults(rules);
}

/** Reference folder → the pi-condense release that wrote it (test/fixtures/pi-condense-sessions/manifest.json). */
export function referenceReleases(): ReadonlyMap<string, ReleaseRules> {
	const manifest = JSON.parse(readFileSync(join(repoRoot, 'test', 'fixtures', 'pi-condense-sessions', 'manifest.json'), 'utf8')) as { releases: Record<string, string> };
	const releases = new Map<string, ReleaseRules>();
	for (const [folder, version] of Object.entries(manifest.releases)) {
		const match = matchRelease(version);
		if (match?.kind !== 'known') {
			throw new Error(`manifest.json: ${folder} names ${version}, not a known pi-condense release`);
		}
		releases.set(folder, releaseRules(match.release));
	}
	return releases;
}

/** Reference folder → the Pi release that wrote it (`0.78.1`, `1.6.0`; manifest.json's `pi`). */
export function referencePiVersions(): ReadonlyMap<string, string> {
	const manifest = JSON.parse(readFileSync(join(repoRoot, 'test', 'fixtures', 'pi-condense-sessions', 'manifest.json'), 'utf8')) as { pi: Record<string, string> };
	return new Map(Object.entries(manifest.pi));
}
