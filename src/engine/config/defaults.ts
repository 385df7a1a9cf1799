/**
 * Default `contextPrune` configuration of each pi-condense release. Pure.
 *
 * 2.0.0's defaults, plus what later releases add: `recoveryGraceTurns` 3 (2.3.0), the summarizer
 * timeouts 20 s idle and 180 s total (2.4.0); `thinkingStrip` {enabled, keep the last 16} exists up
 * to 2.4.3 and is gone from 2.5.0 (the release decides, so its default strips thinking).
 */
import type { ReleaseRules } from '../release/releases';
import type { ContextPruneConfig, ThinkingStripConfig } from './types';

const BASE_DEFAULTS: ContextPruneConfig = {
	enabled: false,
	showPruneStatusLine: true,
	summarizerModel: 'default',
	summarizerThinking: 'default',
	pruneOn: 'agent-message',
	batchingMode: 'turn',
	quietOversizedSkips: false,
	minBatchChars: 1000,
	protectedTools: [],
	protectedPaths: ['**/skills/**/*.md'],
	chainCompression: {
		enabled: true,
		rollingWindow: 3,
		stripFinalAssistantThinking: true,
		fuseRangeSummary: true,
	},
	purgeErrors: {
		enabled: true,
		cooldownTurns: 2,
		minArgChars: 500,
	},
	dedupByContentHash: true,
	autoBudgetThreshold: null,
	spillThreshold: 65536,
	spillPreviewBytes: 2048,
	budgetTurnDelta: null,
};

export const THINKING_STRIP_DEFAULT: ThinkingStripConfig = { enabled: true, keepLastTurns: 16 };
const RECOVERY_GRACE_DEFAULT = 3;
const SUMMARIZER_IDLE_TIMEOUT_DEFAULT = 20000;
const SUMMARIZER_MAX_TIMEOUT_DEFAULT = 180000;

/** The configuration `rules` uses when settings.json has no `contextPrune` key. */
export function releaseDefaults(rules: ReleaseRules): ContextPruneConfig {
	return {
		...BASE_DEFAULTS,
		...(rules.thinkingStrip !== 'none' ? { thinkingStrip: THINKING_STRIP_DEFAULT } : {}),
		...(rules.recoveryGrace ? { recoveryGraceTurns: RECOVERY_GRACE_DEFAULT } : {}),
		...(rules.summarizerTimeouts ? { summarizerIdleTimeoutMs: SUMMARIZER_IDLE_TIMEOUT_DEFAULT, summarizerMaxTimeoutMs: SUMMARIZER_MAX_TIMEOUT_DEFAULT } : {}),
	};
}

/** The `contextPrune` keys a release ignores (not read, but kept in the file). */
export function ignoredKeys(rules: ReleaseRules): readonly string[] {
	return [
		...(rules.thinkingStrip === 'none' ? ['thinkingStrip'] : []),
		...(rules.recoveryGrace ? [] : ['recoveryGraceTurns']),
		...(rules.summarizerTimeouts ? [] : ['summarizerIdleTimeoutMs', 'summarizerMaxTimeoutMs']),
	];
}
