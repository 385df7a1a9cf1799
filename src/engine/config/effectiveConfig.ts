/**
 * The configuration that decides what is sent, from `contextPrune` and how the release was found.
 * Without pi-condense, Pi never stubs anything: pruning is off while it is not installed. Pure.
 */
import type { ReleaseResolution } from '../release/installedRelease';
import type { ContextPruneConfig } from './types';

export function effectiveConfig(config: ContextPruneConfig, resolution: ReleaseResolution): ContextPruneConfig {
	return resolution.kind === 'followed' || !config.enabled ? config : { ...config, enabled: false };
}
