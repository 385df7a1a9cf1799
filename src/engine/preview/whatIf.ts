/**
 * What-if settings: the pruning settings the preview lets the user change without writing
 * anything, mapped to and from the `contextPrune` configuration. Pure.
 *
 * @example
 * const config = withWhatIf(current, { 'thinkingStrip.keepLastTurns': 4 });
 * whatIfChanges(current, { 'thinkingStrip.keepLastTurns': 4 }) // [{ key: 'thinkingStrip.keepLastTurns', value: 4 }] (up to 2.4.3)
 */
import { THINKING_STRIP_DEFAULT } from '../config/defaults';
import type { ContextPruneConfig } from '../config/types';
import type { WhatIfSettings } from './snapshotTypes';

export type WhatIfOverrides = Partial<WhatIfSettings>;

export function whatIfSettings(config: ContextPruneConfig): WhatIfSettings {
	return {
		'chainCompression.rollingWindow': config.chainCompression.rollingWindow,
		// A release without the thinking strip (2.5.0+) reads no such key: shown as off, never applied.
		'thinkingStrip.enabled': config.thinkingStrip?.enabled ?? false,
		'thinkingStrip.keepLastTurns': config.thinkingStrip?.keepLastTurns ?? THINKING_STRIP_DEFAULT.keepLastTurns,
		'purgeErrors.cooldownTurns': config.purgeErrors.cooldownTurns,
		protectedTools: config.protectedTools,
	};
}

const COUNT_KEYS = ['chainCompression.rollingWindow', 'thinkingStrip.keepLastTurns', 'purgeErrors.cooldownTurns'] as const;

/** Overrides with out-of-range values dropped: whole numbers ≥ 0, tool names trimmed and deduplicated. */
export function sanitizeOverrides(overrides: WhatIfOverrides): WhatIfOverrides {
	const out: { -readonly [K in keyof WhatIfSettings]?: WhatIfSettings[K] } = {};
	for (const key of COUNT_KEYS) {
		const value: unknown = overrides[key];
		if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 1_000_000) {
			out[key] = value;
		}
	}
	if (typeof overrides['thinkingStrip.enabled'] === 'boolean') {
		out['thinkingStrip.enabled'] = overrides['thinkingStrip.enabled'];
	}
	if (Array.isArray(overrides.protectedTools)) {
		const names = overrides.protectedTools.filter((name): name is string => typeof name === 'string').map((name) => name.trim()).filter((name) => name !== '');
		out.protectedTools = [...new Set(names)];
	}
	return out;
}

export function withWhatIf(config: ContextPruneConfig, overrides: WhatIfOverrides): ContextPruneConfig {
	const s = { ...whatIfSettings(config), ...sanitizeOverrides(overrides) };
	return {
		...config,
		protectedTools: s.protectedTools,
		chainCompression: { ...config.chainCompression, rollingWindow: s['chainCompression.rollingWindow'] },
		...(config.thinkingStrip ? { thinkingStrip: { ...config.thinkingStrip, enabled: s['thinkingStrip.enabled'], keepLastTurns: s['thinkingStrip.keepLastTurns'] } } : {}),
		purgeErrors: { ...config.purgeErrors, cooldownTurns: s['purgeErrors.cooldownTurns'] },
	};
}

/** The `contextPrune` keys (dotted) whose value the overrides change, with the new values. */
export function whatIfChanges(config: ContextPruneConfig, overrides: WhatIfOverrides): { key: string; value: unknown }[] {
	const current = whatIfSettings(config);
	const next = { ...current, ...sanitizeOverrides(overrides) };
	// A release without the thinking strip reads none of its keys: changing them changes nothing.
	const keys = (Object.keys(current) as (keyof WhatIfSettings)[]).filter((key) => config.thinkingStrip || !key.startsWith('thinkingStrip.'));
	// Values as settings.json holds them (numbers, booleans, a list of names): the same JSON is the
	// same setting (the engine has no Node `util.isDeepStrictEqual`).
	return keys.filter((key) => JSON.stringify(current[key]) !== JSON.stringify(next[key])).map((key) => ({ key, value: next[key] }));
}
