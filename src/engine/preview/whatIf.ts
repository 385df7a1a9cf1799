/**
 * What-if settings: the pruning settings the preview lets the user change without writing
 * anything, mapped to and from the `contextPrune` configuration. Pure.
 *
 * @example
 * const config = withWhatIf(current, { keepLastTurns: 4 });
 * whatIfChanges(current, { keepLastTurns: 4 }) // [{ key: 'thinkingStrip.keepLastTurns', value: 4 }] (up to 2.4.3)
 */
import { THINKING_STRIP_DEFAULT } from '../config/defaults';
import type { ContextPruneConfig } from '../config/types';
import type { WhatIfSettings } from './snapshotTypes';

export type WhatIfOverrides = Partial<WhatIfSettings>;

export function whatIfSettings(config: ContextPruneConfig): WhatIfSettings {
	return {
		rollingWindow: config.chainCompression.rollingWindow,
		// A release without the thinking strip (2.5.0+) reads no such key: shown as off, never applied.
		thinkingStripEnabled: config.thinkingStrip?.enabled ?? false,
		keepLastTurns: config.thinkingStrip?.keepLastTurns ?? THINKING_STRIP_DEFAULT.keepLastTurns,
		purgeCooldownTurns: config.purgeErrors.cooldownTurns,
		protectedTools: config.protectedTools,
	};
}

/** Overrides with out-of-range values dropped: whole numbers ≥ 0, tool names trimmed and deduplicated. */
export function sanitizeOverrides(overrides: WhatIfOverrides): WhatIfOverrides {
	const count = (value: unknown): number | undefined => typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 1_000_000 ? value : undefined;
	const out: { -readonly [K in keyof WhatIfSettings]?: WhatIfSettings[K] } = {};
	const rollingWindow = count(overrides.rollingWindow);
	const keepLastTurns = count(overrides.keepLastTurns);
	const purgeCooldownTurns = count(overrides.purgeCooldownTurns);
	if (rollingWindow !== undefined) {
		out.rollingWindow = rollingWindow;
	}
	if (keepLastTurns !== undefined) {
		out.keepLastTurns = keepLastTurns;
	}
	if (purgeCooldownTurns !== undefined) {
		out.purgeCooldownTurns = purgeCooldownTurns;
	}
	if (typeof overrides.thinkingStripEnabled === 'boolean') {
		out.thinkingStripEnabled = overrides.thinkingStripEnabled;
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
		chainCompression: { ...config.chainCompression, rollingWindow: s.rollingWindow },
		...(config.thinkingStrip ? { thinkingStrip: { ...config.thinkingStrip, enabled: s.thinkingStripEnabled, keepLastTurns: s.keepLastTurns } } : {}),
		purgeErrors: { ...config.purgeErrors, cooldownTurns: s.purgeCooldownTurns },
	};
}

/** The `contextPrune` keys (dotted) whose value the overrides change, with the new values. */
export function whatIfChanges(config: ContextPruneConfig, overrides: WhatIfOverrides): { key: string; value: unknown }[] {
	const current = whatIfSettings(config);
	const next = { ...current, ...sanitizeOverrides(overrides) };
	const changes: { key: string; value: unknown }[] = [];
	const add = (key: string, before: unknown, after: unknown): void => {
		if (JSON.stringify(before) !== JSON.stringify(after)) {
			changes.push({ key, value: after });
		}
	};
	add('chainCompression.rollingWindow', current.rollingWindow, next.rollingWindow);
	if (config.thinkingStrip) {
		add('thinkingStrip.enabled', current.thinkingStripEnabled, next.thinkingStripEnabled);
		add('thinkingStrip.keepLastTurns', current.keepLastTurns, next.keepLastTurns);
	}
	add('purgeErrors.cooldownTurns', current.purgeCooldownTurns, next.purgeCooldownTurns);
	add('protectedTools', current.protectedTools, next.protectedTools);
	return changes;
}
