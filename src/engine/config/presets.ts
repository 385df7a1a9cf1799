/**
 * The choices the settings UI offers for each enumerated or numeric `contextPrune` key. Pure data.
 *
 * Values and labels follow pi-condense's own settings overlay (`seeds/types.ts.txt`), with typed
 * values instead of its cycled strings; `null` is "off" for the auto-budget threshold.
 */
import type { BatchingMode, PruneOn, SummarizerThinking } from './types';

export interface ConfigChoice<T> {
	readonly value: T;
	readonly label: string;
}

export const ROLLING_WINDOW_PRESETS: readonly ConfigChoice<number>[] = [
	{ value: 1, label: '1' },
	{ value: 2, label: '2' },
	{ value: 3, label: '3 (default)' },
	{ value: 5, label: '5' },
	{ value: 10, label: '10' },
];

export const KEEP_LAST_TURNS_PRESETS: readonly ConfigChoice<number>[] = [
	{ value: 4, label: '4' },
	{ value: 8, label: '8' },
	{ value: 16, label: '16 (default)' },
	{ value: 32, label: '32' },
	{ value: 64, label: '64' },
];

export const PURGE_COOLDOWN_PRESETS: readonly ConfigChoice<number>[] = [
	{ value: 1, label: '1' },
	{ value: 2, label: '2 (default)' },
	{ value: 3, label: '3' },
	{ value: 5, label: '5' },
	{ value: 10, label: '10' },
];

export const PURGE_MIN_ARG_PRESETS: readonly ConfigChoice<number>[] = [
	{ value: 100, label: '100' },
	{ value: 500, label: '500 (default)' },
	{ value: 1000, label: '1000' },
	{ value: 5000, label: '5000' },
];

export const MIN_BATCH_CHARS_PRESETS: readonly ConfigChoice<number>[] = [
	{ value: 0, label: '0 (disabled)' },
	{ value: 500, label: '500' },
	{ value: 1000, label: '1000 (default)' },
	{ value: 2000, label: '2000' },
	{ value: 5000, label: '5000' },
];

export const AUTO_BUDGET_PRESETS: readonly ConfigChoice<number | null>[] = [
	{ value: null, label: 'Off (default)' },
	{ value: 0.6, label: '60%' },
	{ value: 0.7, label: '70%' },
	{ value: 0.8, label: '80%' },
	{ value: 0.9, label: '90%' },
];

export const PRUNE_ON_MODES: readonly ConfigChoice<PruneOn>[] = [
	{ value: 'agent-message', label: 'On agent message' },
	{ value: 'on-demand', label: 'On demand' },
];

export const BATCHING_MODES: readonly ConfigChoice<BatchingMode>[] = [
	{ value: 'turn', label: 'Per turn' },
	{ value: 'agent-message', label: 'Per agent message' },
];

export const SUMMARIZER_THINKING_LEVELS: readonly ConfigChoice<SummarizerThinking>[] = [
	{ value: 'default', label: 'Default' },
	{ value: 'off', label: 'Off' },
	{ value: 'minimal', label: 'Minimal' },
	{ value: 'low', label: 'Low' },
	{ value: 'medium', label: 'Medium' },
	{ value: 'high', label: 'High' },
	{ value: 'xhigh', label: 'XHigh' },
];

/** 2.3.0+: `recoveryGraceTurns` (user-turn-groups). */
export const RECOVERY_GRACE_PRESETS: readonly ConfigChoice<number>[] = [
	{ value: 0, label: '0 (disabled)' },
	{ value: 1, label: '1' },
	{ value: 3, label: '3 (default)' },
	{ value: 5, label: '5' },
	{ value: 8, label: '8' },
];

/** 2.4.0+: `summarizerIdleTimeoutMs`. */
export const IDLE_TIMEOUT_PRESETS: readonly ConfigChoice<number>[] = [
	{ value: 0, label: '0 (disabled)' },
	{ value: 10000, label: '10s' },
	{ value: 20000, label: '20s (default)' },
	{ value: 45000, label: '45s' },
	{ value: 90000, label: '90s' },
];

/** 2.4.0+: `summarizerMaxTimeoutMs`. */
export const MAX_TIMEOUT_PRESETS: readonly ConfigChoice<number>[] = [
	{ value: 0, label: '0 (disabled)' },
	{ value: 120000, label: '120s' },
	{ value: 180000, label: '180s (default)' },
	{ value: 300000, label: '300s' },
	{ value: 600000, label: '600s' },
];
