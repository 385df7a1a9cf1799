/**
 * The settings a session is rendered with: Pi's `contextPrune` as the session's project's
 * installed pi-condense release reads it (its defaults, the keys it knows), and that release.
 * Without pi-condense in Pi nothing is pruned. Resolved once per settings change and release
 * change; renders read it synchronously.
 */
import { type ConfigProblem, type ContextPruneConfig, effectiveConfig, resolveConfig } from '../../engine/config';
import { readingRules, type ReleaseResolution } from '../../engine/release';
import type { PruneSettings, RenderSettings } from '../settings/readPruneSettings';
import type { ReleaseSource } from '../release/releaseSource';

export interface SessionSettings extends RenderSettings {
	/** What is sent: `configured`, with pruning off while pi-condense is not installed. */
	readonly config: ContextPruneConfig;
	/** `contextPrune` as the release reads it (what Settings… shows and edits). */
	readonly configured: ContextPruneConfig;
	readonly resolution: ReleaseResolution;
	readonly problems: readonly ConfigProblem[];
	readonly ignored: readonly string[];
}

export class SessionSettingsResolver {
	/** Per settings snapshot, per release outcome: the same object while neither changes (views cache on it). */
	private readonly memo = new WeakMap<PruneSettings, Map<string, SessionSettings>>();

	constructor(private readonly releases: ReleaseSource) {}

	/** Resolves the release of a project (first time only); `settingsFor` is exact afterwards. */
	async ready(cwd: string | undefined): Promise<void> {
		await this.releases.resolve(cwd);
	}

	/** The settings of sessions of `cwd`; undefined until that project's release is known. */
	settingsFor(cwd: string | undefined, settings: PruneSettings): SessionSettings | undefined {
		const resolution = this.releases.current(cwd);
		return resolution && this.withRelease(settings, resolution);
	}

	withRelease(settings: PruneSettings, resolution: ReleaseResolution): SessionSettings {
		const key = resolution.kind === 'followed' ? resolution.release : 'none';
		let perSettings = this.memo.get(settings);
		if (!perSettings) {
			perSettings = new Map();
			this.memo.set(settings, perSettings);
		}
		const known = perSettings.get(key);
		if (known && known.resolution === resolution) {
			return known;
		}
		const rules = readingRules(resolution);
		// The file's snapshot was resolved for one release: resolve the same raw value for this one.
		const read = rules.version === settings.rules.version ? settings : resolveConfig(settings.raw, rules);
		const value: SessionSettings = {
			config: effectiveConfig(read.config, resolution),
			configured: read.config,
			rules,
			resolution,
			// A contextPrune of the wrong type is one file problem, reported with the file.
			problems: settings.fileState.kind === 'prune-not-object' ? [] : read.problems,
			ignored: read.ignored,
		};
		perSettings.set(key, value);
		return value;
	}
}
