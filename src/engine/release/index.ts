/** Public API of the release rules: which pi-condense release does what. Pure. */
export {
	isAtLeast, KNOWN_RELEASES, LATEST_RELEASE, matchRelease, releaseRules,
	type OrphanSweepRule, type PromptRevision, type ReleaseMatch, type ReleaseRules, type ReleaseVersion,
	type SummarizerFallbackRule, type ThinkingStripRule,
} from './releases';
