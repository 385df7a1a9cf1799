/**
 * What the session store reads Pi's state from during one start: Pi's `contextPrune` settings
 * (followed as the file changes), the pi-condense release of each project (followed as Pi installs,
 * updates or removes it, or the user's choice changes), and from both the settings each session is
 * rendered with. Made per start under that start's scope: a restart (another agent dir) closes them
 * with it and makes new ones.
 */
import type { Logger } from '../../engine/ports';
import { errorMessage } from '../../base/errorMessage';
import { isWorkStopped, type WorkScope } from '../../work';
import type { PruneSettings } from '../settings/readPruneSettings';
import type { PruneMutation, PruneSettingsWrite } from '../settings/updatePruneSettings';
import { ReleaseSource } from '../release/releaseSource';
import { PruneSettingsSource } from './pruneSettingsSource';
import { SessionSettingsResolver, type SessionSettings } from './sessionSettings';

export interface StoreSourcesOptions {
	readonly agentDir: string;
	readonly logger: Logger;
	/** The `piCondense.release` value (`auto` or a known release). */
	readonly releaseChoice: unknown;
	/** VS Code's workspace trust: whether a project's `.pi/settings.json` may be followed at all. */
	readonly projectSettingsAllowed: boolean;
	/** Folders the installed Pi is never followed into: the open workspace folders. */
	readonly excludedRoots: readonly string[];
	/** The project whose release applies while no session is selected (undefined for the user's Pi alone). */
	readonly scopeCwd: string | undefined;
	/** The settings, or a project's release, changed: every session renders again. */
	readonly changed: (settings: PruneSettings) => void;
}

export class StoreSources {
	readonly settings: PruneSettingsSource;
	private readonly releases: ReleaseSource;
	private readonly resolver: SessionSettingsResolver;

	constructor(work: WorkScope, private readonly options: StoreSourcesOptions) {
		const { agentDir, logger } = options;
		this.settings = new PruneSettingsSource(work.child('settings'), agentDir, logger);
		this.settings.onDidChange((value) => options.changed(value));
		this.releases = new ReleaseSource({
			work: work.child('releases'), agentDir, logger, choice: options.releaseChoice,
			projectSettingsAllowed: options.projectSettingsAllowed, excludedRoots: options.excludedRoots,
		});
		this.resolver = new SessionSettingsResolver(this.releases);
		// After `pi install`, `pi update` or a new piCondense.release: every view renders again.
		this.releases.onDidChange(({ cwd, resolution }) => {
			logger.info(`pi-condense release${cwd ? ` for ${cwd}` : ''}: ${resolution.kind === 'followed' ? resolution.release : 'not installed'}`);
			options.changed(this.settings.settings);
		});
	}

	/** Reads the settings and resolves the workspace project's release (before the first listing: no surface shows a state it later corrects). */
	async start(): Promise<void> {
		await Promise.all([this.settings.start(), this.releases.resolve(this.options.scopeCwd).catch((error: unknown) => {
			if (!isWorkStopped(error)) {
				this.options.logger.warn(`pi-condense release: ${errorMessage(error)}`);
			}
		})]);
	}

	/** What sessions of the project `cwd` render with; undefined until that project's release is known. */
	settingsFor(cwd: string | undefined): SessionSettings | undefined {
		return this.resolver.settingsFor(cwd, this.settings.settings);
	}

	/** What applies while no session is selected (the workspace project's release). */
	scopeSettings(): SessionSettings | undefined {
		return this.settingsFor(this.options.scopeCwd);
	}

	/** Resolves the release of a project (the first time it is seen). */
	ready(cwd: string | undefined): Promise<void> {
		return this.resolver.ready(cwd);
	}

	setReleaseChoice(value: unknown): void {
		this.releases.setChoice(value);
	}

	update(mutate: PruneMutation): Promise<PruneSettingsWrite> {
		return this.settings.update(mutate);
	}
}
