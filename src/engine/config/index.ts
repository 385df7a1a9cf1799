/** Public API of src/engine/config/ for the layers above the engine. */
export { releaseDefaults } from './defaults';
export { effectiveConfig } from './effectiveConfig';
export { BATCHING_MODES, MIN_BATCH_CHARS_PRESETS, PRUNE_ON_MODES, RECOVERY_GRACE_PRESETS, SUMMARIZER_THINKING_LEVELS } from './presets';
export { type ConfigProblem, describeConfigProblem, resolveConfig } from './resolve';
export { setConfigKeys, withWholeBlocks } from './setConfigKey';
export { describePruneSettingsProblem, describeSettingsProblem, jsonTypeName, type PruneSettingsFileState, type SettingsFileState } from './settingsProblems';
export type { ContextPruneConfig, SummarizerThinking } from './types';
