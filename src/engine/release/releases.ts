/**
 * The pi-condense releases this project follows, and what each one does differently. Pure.
 *
 * A user's installed release decides what the model is sent and what a flush writes, so every
 * engine entry point that depends on it takes a `ReleaseRules` value (never a global). The rules
 * are derived once from a version; callers resolve the version when the configuration changes.
 *
 * @example
 * const rules = releaseRules('2.9.1');
 * rules.thinkingStrip // 'none'
 */
import compare from 'semver/functions/compare';
import parse from 'semver/functions/parse';

/** Every pi-condense release from 2.0.0 to the latest, oldest first. */
export const KNOWN_RELEASES = [
	'2.0.0', '2.0.1', '2.1.0', '2.1.1', '2.1.2', '2.2.0', '2.2.1', '2.3.0', '2.4.0', '2.4.1', '2.4.2',
	'2.4.3', '2.5.0', '2.6.0', '2.7.0', '2.8.0', '2.9.0', '2.9.1',
] as const;

export type ReleaseVersion = typeof KNOWN_RELEASES[number];

export const LATEST_RELEASE: ReleaseVersion = '2.9.1';

/** How a release removes thinking blocks from the rendered context. */
export type ThinkingStripRule =
	/** 2.0.0–2.4.2: all but the last `keepLastTurns` assistant messages of the rendered array. */
	| 'live-count'
	/** 2.4.3: below the boundary stored on the frontier at flush time (live count without one). */
	| 'flush-boundary'
	/** 2.5.0+: never (the `thinkingStrip` key is ignored). */
	| 'none';

/** The orphan sweep of 2.6.0+ (last render phase). */
export type OrphanSweepRule =
	| 'none'
	/** 2.6.0–2.9.0: only an assistant message resets the open set of tool-call ids. */
	| 'assistant-only'
	/** 2.9.1: any message that is neither assistant nor toolResult also resets it. */
	| 'barrier';

/** Which summarizer prompt text a release sends. */
export type PromptRevision = '2.0.0' | '2.0.1' | '2.1.0';

/** The 2.2.x fallback to the session model while the summarizer model fails. */
export type SummarizerFallbackRule = 'none' | 'starving' | 'fixed';

export interface ReleaseRules {
	readonly version: ReleaseVersion;
	/** `display` of written summary messages (2.0.1+: false). */
	readonly summaryDisplay: boolean;
	readonly promptRevision: PromptRevision;
	/** 2.1.0+: `[[N:tool]]` labels in the batch and their rewrite to `` `tN` `` in summaries. */
	readonly inlineRefs: boolean;
	readonly summarizerFallback: SummarizerFallbackRule;
	/** 2.3.0+: `recoveryGraceTurns` keeps recovered `context_tree_query` output verbatim. */
	readonly recoveryGrace: boolean;
	/** 2.4.0+: `summarizerIdleTimeoutMs` and `summarizerMaxTimeoutMs`. */
	readonly summarizerTimeouts: boolean;
	readonly thinkingStrip: ThinkingStripRule;
	/** 2.6.0+: records, refs, aliases and chains keyed by `id@resultTimestamp`. */
	readonly occurrenceKeys: boolean;
	/** 2.6.0+: chains resolve to one positional range; before, the union of dropped ids goes anywhere. */
	readonly positionalChains: boolean;
	readonly orphanSweep: OrphanSweepRule;
	/** 2.6.0+: `context-prune-diagnostic` entries and the `diag` status segment. */
	readonly diagnosticEntries: boolean;
	/** 2.7.0+: `context-prune-flush-metrics` entries, the `--- context ---` status block and footer metrics. */
	readonly flushMetrics: boolean;
	/** 2.8.0+: budget triggers measured against a window of at most 300,000 tokens. */
	readonly budgetWindowCap: number | undefined;
	/** 2.9.0+: uncovered chains are compressed with a deterministic body and an index backfill. */
	readonly deterministicChains: boolean;
}

/** Whether `version` is `floor` or newer. */
export function isAtLeast(version: ReleaseVersion, floor: ReleaseVersion): boolean {
	return KNOWN_RELEASES.indexOf(version) >= KNOWN_RELEASES.indexOf(floor);
}

export function releaseRules(version: ReleaseVersion): ReleaseRules {
	const from = (floor: ReleaseVersion): boolean => isAtLeast(version, floor);
	return {
		version,
		summaryDisplay: !from('2.0.1'),
		promptRevision: from('2.1.0') ? '2.1.0' : from('2.0.1') ? '2.0.1' : '2.0.0',
		inlineRefs: from('2.1.0'),
		summarizerFallback: from('2.2.1') ? 'fixed' : from('2.2.0') ? 'starving' : 'none',
		recoveryGrace: from('2.3.0'),
		summarizerTimeouts: from('2.4.0'),
		thinkingStrip: from('2.5.0') ? 'none' : version === '2.4.3' ? 'flush-boundary' : 'live-count',
		occurrenceKeys: from('2.6.0'),
		positionalChains: from('2.6.0'),
		orphanSweep: from('2.9.1') ? 'barrier' : from('2.6.0') ? 'assistant-only' : 'none',
		diagnosticEntries: from('2.6.0'),
		flushMetrics: from('2.7.0'),
		budgetWindowCap: from('2.8.0') ? 300_000 : undefined,
		deterministicChains: from('2.9.0'),
	};
}

export type ReleaseMatch =
	| { readonly kind: 'known'; readonly release: ReleaseVersion }
	/** Newer than the latest known release: followed as the latest, with a warning. */
	| { readonly kind: 'newer'; readonly release: ReleaseVersion; readonly version: string }
	/** Older than 2.0.0 (e.g. pi-context-prune 1.3.1): followed as 2.0.0 (same engine), with a note. */
	| { readonly kind: 'older'; readonly release: ReleaseVersion; readonly version: string };

/**
 * Maps an installed `package.json` version (a `v` prefix and a pre-release or build suffix are
 * allowed, as npm reads it) to the newest known release at or below it, a pre-release below its
 * release. Undefined when it is not a version.
 */
export function matchRelease(version: string): ReleaseMatch | undefined {
	const parsed = parse(version, { loose: true });
	if (!parsed) {
		return undefined;
	}
	const best = KNOWN_RELEASES.filter((release) => compare(release, parsed) <= 0).at(-1);
	if (!best) {
		return { kind: 'older', release: KNOWN_RELEASES[0], version };
	}
	if (compare(parsed, LATEST_RELEASE) > 0) {
		return { kind: 'newer', release: LATEST_RELEASE, version };
	}
	return { kind: 'known', release: best };
}
