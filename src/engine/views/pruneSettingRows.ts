/**
 * The rows of the settings editor for the user's pi-condense release: the keys it reads, by group
 * (`pruneSettingHelp.ts`) and within a group in its overlay order, each with a one-line description
 * and its default; then the keys it ignores, marked so (they stay in settings.json and are never
 * dropped). Pure.
 */
import { ignoredKeys, releaseDefaults } from '../config/defaults';
import {
	AUTO_BUDGET_PRESETS, BATCHING_MODES, IDLE_TIMEOUT_PRESETS, KEEP_LAST_TURNS_PRESETS, MAX_TIMEOUT_PRESETS, MIN_BATCH_CHARS_PRESETS, PRUNE_ON_MODES,
	PURGE_COOLDOWN_PRESETS, PURGE_MIN_ARG_PRESETS, RECOVERY_GRACE_PRESETS, ROLLING_WINDOW_PRESETS, SUMMARIZER_THINKING_LEVELS, type ConfigChoice,
} from '../config/presets';
import type { ContextPruneConfig } from '../config/types';
import { modelLabel } from '../pruner/prunerTexts';
import { SETTING_GROUPS, settingHelp, type SettingHelp } from './pruneSettingHelp';
import type { ReleaseRules } from '../release/releases';

export type SettingRow =
	| { readonly key: string; readonly label: string; readonly kind: 'boolean' }
	| { readonly key: string; readonly label: string; readonly kind: 'choice'; readonly choices: readonly ConfigChoice<unknown>[] }
	| { readonly key: string; readonly label: string; readonly kind: 'number'; readonly min: number; readonly presets?: readonly ConfigChoice<number>[] }
	/** A fraction in (0, 1], or null for off. */
	| { readonly key: string; readonly label: string; readonly kind: 'fraction' }
	| { readonly key: string; readonly label: string; readonly kind: 'model' }
	| { readonly key: string; readonly label: string; readonly kind: 'list' };

/** A row as one release shows it: `ignored` when the release does not read the key; its group, what it does. */
export type ReleaseSettingRow = SettingRow & { readonly ignored: boolean } & SettingHelp;

const THINKING_STRIP_ROWS: readonly SettingRow[] = [
	{ key: 'thinkingStrip.enabled', label: 'Thinking strip', kind: 'boolean' },
	{ key: 'thinkingStrip.keepLastTurns', label: 'Thinking keep last N', kind: 'number', min: 0, presets: KEEP_LAST_TURNS_PRESETS },
];

/** 2.3.0 and 2.4.0 added these after "Min batch chars". */
const LATER_ROWS: readonly SettingRow[] = [
	{ key: 'recoveryGraceTurns', label: 'Recovery grace (user-turn-groups)', kind: 'number', min: 0, presets: RECOVERY_GRACE_PRESETS },
	{ key: 'summarizerIdleTimeoutMs', label: 'Summarizer idle timeout (ms)', kind: 'number', min: 0, presets: IDLE_TIMEOUT_PRESETS },
	{ key: 'summarizerMaxTimeoutMs', label: 'Summarizer max timeout (ms)', kind: 'number', min: 0, presets: MAX_TIMEOUT_PRESETS },
];

/** Every row, in the newest overlay order, with the thinking strip where 2.0.0–2.4.3 show it. */
export const SETTING_ROWS: readonly SettingRow[] = [
	{ key: 'enabled', label: 'Enabled', kind: 'boolean' },
	{ key: 'showPruneStatusLine', label: 'Prune status line', kind: 'boolean' },
	{ key: 'pruneOn', label: 'Prune trigger', kind: 'choice', choices: PRUNE_ON_MODES },
	{ key: 'summarizerModel', label: 'Summarizer model', kind: 'model' },
	{ key: 'summarizerThinking', label: 'Summarizer thinking', kind: 'choice', choices: SUMMARIZER_THINKING_LEVELS },
	{ key: 'batchingMode', label: 'Batching mode', kind: 'choice', choices: BATCHING_MODES },
	{ key: 'quietOversizedSkips', label: 'Quiet skip notifications', kind: 'boolean' },
	{ key: 'minBatchChars', label: 'Min batch chars', kind: 'number', min: 0, presets: MIN_BATCH_CHARS_PRESETS },
	...LATER_ROWS,
	{ key: 'autoBudgetThreshold', label: 'Auto-flush at context %', kind: 'choice', choices: AUTO_BUDGET_PRESETS },
	{ key: 'dedupByContentHash', label: 'Dedup by content hash', kind: 'boolean' },
	{ key: 'chainCompression.enabled', label: 'Chain compression', kind: 'boolean' },
	{ key: 'chainCompression.rollingWindow', label: 'Chain window K', kind: 'number', min: 0, presets: ROLLING_WINDOW_PRESETS },
	{ key: 'chainCompression.stripFinalAssistantThinking', label: 'Strip final thinking', kind: 'boolean' },
	{ key: 'chainCompression.fuseRangeSummary', label: 'Fuse range summary', kind: 'boolean' },
	...THINKING_STRIP_ROWS,
	{ key: 'purgeErrors.enabled', label: 'Error purge', kind: 'boolean' },
	{ key: 'purgeErrors.cooldownTurns', label: 'Error purge cooldown', kind: 'number', min: 0, presets: PURGE_COOLDOWN_PRESETS },
	{ key: 'purgeErrors.minArgChars', label: 'Error purge min arg chars', kind: 'number', min: 0, presets: PURGE_MIN_ARG_PRESETS },
	{ key: 'protectedTools', label: 'Protected tools', kind: 'list' },
	{ key: 'protectedPaths', label: 'Protected paths', kind: 'list' },
	{ key: 'spillThreshold', label: 'Spill threshold (chars)', kind: 'number', min: 1 },
	{ key: 'spillPreviewBytes', label: 'Spill preview (bytes)', kind: 'number', min: 0 },
	{ key: 'budgetTurnDelta', label: 'Flush on context rise per turn', kind: 'fraction' },
];

/** The rows for a release: the keys it reads by group (in its order within one), then the ones it ignores (marked). */
export function settingRows(rules: ReleaseRules): readonly ReleaseSettingRow[] {
	const ignored = new Set(ignoredKeys(rules));
	const isIgnored = (row: SettingRow): boolean => ignored.has(row.key.split('.')[0] ?? row.key);
	const withHelp = (row: SettingRow, rowIgnored: boolean): ReleaseSettingRow => ({ ...row, ignored: rowIgnored, ...settingHelp(row.key) });
	const read = SETTING_ROWS.filter((row) => !isIgnored(row)).map((row) => withHelp(row, false));
	return [
		...SETTING_GROUPS.flatMap((group) => read.filter((row) => row.group === group)),
		...SETTING_ROWS.filter(isIgnored).map((row) => withHelp(row, true)),
	];
}

/** The current value as the editor shows it, with the release's default beside it when it differs. */
export function valueWithDefault(row: SettingRow, config: ContextPruneConfig, rules: ReleaseRules): string {
	const value = formatSettingValue(row, config);
	const defaults = releaseDefaults(rules);
	if (JSON.stringify(settingValue(config, row.key)) !== JSON.stringify(settingValue(defaults, row.key))) {
		return `${value} · default: ${formatSettingValue(row, defaults).replace(/ \(default\)$/, '')}`;
	}
	return value.endsWith('(default)') ? value : `${value} (default)`;
}

/** How an ignored row reads: the release that ignores it, and the value left in the file, if any. */
export function ignoredRowText(row: SettingRow, raw: unknown, rules: ReleaseRules): string {
	const value = settingValue(raw, row.key);
	const kept = value === undefined ? 'not set' : `${JSON.stringify(value)} kept in settings.json`;
	return `ignored by pi-condense ${rules.version} (${kept})`;
}

/** The value of a dotted key in the resolved configuration (or in the raw `contextPrune` object). */
export function settingValue(config: unknown, key: string): unknown {
	let value: unknown = config;
	for (const part of key.split('.')) {
		value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[part] : undefined;
	}
	return value;
}

/** How the editor shows a row's current value. */
export function formatSettingValue(row: SettingRow, config: ContextPruneConfig): string {
	const value = settingValue(config, row.key);
	switch (row.kind) {
		case 'boolean':
			return value ? 'on' : 'off';
		case 'choice':
			return row.choices.find((choice) => choice.value === value)?.label ?? `${String(value)} (custom)`;
		case 'number': {
			const preset = row.presets?.find((choice) => choice.value === value);
			return preset ? preset.label : String(value);
		}
		case 'fraction':
			return value === null ? 'off' : `${Math.round(Number(value) * 100)}%`;
		case 'model':
			return modelLabel(String(value));
		case 'list':
			return Array.isArray(value) && value.length > 0 ? value.join(', ') : 'none';
	}
}

/** Parses what was typed for a `number` or `fraction` row; a string is the reason it is refused. */
export function parseSettingInput(row: SettingRow, input: string): { readonly value: unknown } | string {
	const text = input.trim();
	if (row.kind === 'fraction') {
		if (text === '' || text === 'off') {
			return { value: null };
		}
		const percent = text.endsWith('%');
		const number = Number(percent ? text.slice(0, -1) : text) / (percent ? 100 : 1);
		return Number.isFinite(number) && number > 0 && number <= 1 ? { value: number } : 'Enter a fraction in (0, 1] such as 0.2 or 20%, or off.';
	}
	if (row.kind === 'number') {
		const number = Number(text);
		return /^\d+$/.test(text) && Number.isSafeInteger(number) && number >= row.min ? { value: number } : `Enter a whole number ≥ ${row.min}.`;
	}
	return { value: text };
}
