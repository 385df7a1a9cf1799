/**
 * The rules a release resolution reads sessions with. Pure.
 *
 * Without pi-condense, Pi never stubs anything: the context is Pi's own (`effectiveConfig`, in
 * `src/engine/config/`). Entries an earlier install left in a session are still read (the tree,
 * recovery), as the newest release reads them.
 */
import type { ReleaseResolution } from './installedRelease';
import { LATEST_RELEASE, releaseRules, type ReleaseRules } from './releases';

const LATEST_RULES = releaseRules(LATEST_RELEASE);

/** The rules to read and render a session with: the followed release's, else the latest's. */
export function readingRules(resolution: ReleaseResolution): ReleaseRules {
	return resolution.kind === 'followed' ? resolution.rules : LATEST_RULES;
}
