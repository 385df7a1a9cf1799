/** Public API of the release rules: which pi-condense release does what, and which one is followed. Pure. */
export {
	isAtLeast, KNOWN_RELEASES, LATEST_RELEASE, matchRelease, releaseRules,
	type OrphanSweepRule, type PromptRevision, type ReleaseMatch, type ReleaseRules, type ReleaseVersion,
	type SummarizerFallbackRule, type ThinkingStripRule,
} from './releases';
export {
	followRelease, identifyCopy,
	type CopyScope, type FollowedRelease, type FoundBy, type InstalledCopy, type NotInstalled, type ReleaseDetection,
	type ReleaseResolution, type ReleaseWarning, type SourceKind,
} from './installedRelease';
export {
	isPiCondenseName, namesPiCondense, parsePackageSource, pinnedVersion, PI_CONDENSE_NAMES,
	type PackageSource, type PiCondenseName,
} from './packageSource';
export {
	overrideOf, parseReleaseChoice,
	type OverrideOrigin, type ParsedReleaseChoice, type ReleaseChoice, type ReleaseOverride,
} from './releaseChoice';
export { INSTALL_COMMAND, notInstalledFlushText, notInstalledText, piCondenseLine, releaseLine, releaseStatusLines, releaseWarningText, shorten } from './releaseTexts';
export { readingRules } from './followedRules';
export {
	isNewerThanKnownPi, isPiPackageName, newerPiSessionText, piFoundByText, piLabel, piNotFoundText, piStatusLine, piWhereLine, PI_PACKAGE_NAMES,
	type InstalledPi, type LoginShellState, type PiNotFound, type PiPackageName,
} from './installedPi';
