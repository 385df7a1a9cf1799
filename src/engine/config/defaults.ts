/**
 * Default `contextPrune` configuration. Pure.
 *
 * These are pi-condense 2.0.0's defaults with one deliberate difference: the thinking strip is off
 * by default. pi-condense measured it as a cost increase and removed it in 2.5.0 (see
 * `spec/pi-condense-behaviour.md` §1.13), so our port keeps it available but opt-in.
 */
import type { ContextPruneConfig } from './types';

export const DEFAULT_CONFIG: ContextPruneConfig = {
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
	thinkingStrip: {
		enabled: false,
		keepLastTurns: 16,
	},
	dedupByContentHash: true,
	autoBudgetThreshold: null,
	spillThreshold: 65536,
	spillPreviewBytes: 2048,
	budgetTurnDelta: null,
	recoveryGraceTurns: 3,
	summarizerIdleTimeoutMs: 20000,
	summarizerMaxTimeoutMs: 180000,
};
