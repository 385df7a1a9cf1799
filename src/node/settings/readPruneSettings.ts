/**
 * Reads the shared `contextPrune` configuration from `<agentDir>/settings.json` (the key
 * pi-condense reads inside Pi), resolved over the defaults, with what is wrong with the file or
 * with any value. Never throws for a bad file: the defaults are used and the state says why.
 */
import { type ConfigProblem, type ContextPruneConfig, jsonTypeName, type PruneSettingsFileState, resolveConfig } from '../../engine/config';
import type { ReleaseRules } from '../../engine/release';
import { globalSettingsPath } from '../paths/agentDir';
import { readSettingsFile } from './settingsFile';

export const PRUNE_SETTINGS_KEY = 'contextPrune';

/** What the engine renders with: the configuration as the user's pi-condense release reads it, and that release. */
export interface RenderSettings {
	readonly config: ContextPruneConfig;
	readonly rules: ReleaseRules;
}

export interface PruneSettings extends RenderSettings {
	readonly path: string;
	readonly problems: readonly ConfigProblem[];
	/** Keys in the file that the release does not read (kept in the file, marked ignored in the UI). */
	readonly ignored: readonly string[];
	readonly fileState: PruneSettingsFileState;
	/** The raw `contextPrune` value as found; undefined when absent or the file is unusable. */
	readonly raw: unknown;
}

export async function readPruneSettings(agentDir: string, rules: ReleaseRules): Promise<PruneSettings> {
	const path = globalSettingsPath(agentDir);
	const snapshot = await readSettingsFile(path);
	const raw = snapshot.settings?.[PRUNE_SETTINGS_KEY];
	const { config, problems, ignored } = resolveConfig(raw, rules);
	const wrongType = raw !== undefined && (typeof raw !== 'object' || raw === null || Array.isArray(raw));
	// A contextPrune of the wrong type is one problem, described with the file (not also as a value problem).
	const fileState: PruneSettingsFileState = wrongType ? { kind: 'prune-not-object', found: jsonTypeName(raw) } : snapshot.state;
	return { path, config, rules, problems: wrongType ? [] : problems, ignored, fileState, raw };
}
