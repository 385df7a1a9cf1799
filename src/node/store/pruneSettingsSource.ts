/**
 * Pi's `contextPrune` settings for the extension: read from `<agentDir>/settings.json`, kept current
 * by watching that file (Pi, an editor or our own writes change it), and written through
 * `updatePruneSettings`. The last read is always available synchronously.
 */
import { isDeepStrictEqual } from 'node:util';
import { resolveConfig } from '../../engine/config';
import type { Logger } from '../../engine/ports';
import { LATEST_RELEASE, releaseRules, type ReleaseRules } from '../../engine/release';
import { globalSettingsPath } from '../paths/agentDir';
import { readPruneSettings, type PruneSettings } from '../settings/readPruneSettings';
import { updatePruneSettings, type PruneMutation, type PruneSettingsWrite } from '../settings/updatePruneSettings';
import { Emitter } from '../../base/emitter';
import { PathWatcher } from '../fs/pathWatcher';
import { errorMessage } from '../../base/errorMessage';
import type { Debounce, WorkScope } from '../../work';

const RELOAD_DELAY_MS = 50;

/**
 * The release the file's own snapshot is resolved with. Each session is rendered with its
 * project's installed release (`SessionSettingsResolver` resolves the same raw value again for it);
 * this one only serves where no session is involved.
 */
const FILE_SNAPSHOT_RELEASE: ReleaseRules = releaseRules(LATEST_RELEASE);

/** What is used before the first read finishes: the release's defaults. */
export function defaultPruneSettings(agentDir: string, rules: ReleaseRules = FILE_SNAPSHOT_RELEASE): PruneSettings {
	const { config } = resolveConfig(undefined, rules);
	return { path: globalSettingsPath(agentDir), config, rules, problems: [], ignored: [], fileState: { kind: 'missing' }, raw: undefined };
}

export class PruneSettingsSource {
	private readonly changed: Emitter<PruneSettings>;
	/** Fires after each read that follows a change of the file. */
	readonly onDidChange;
	private current: PruneSettings;
	private watcher: PathWatcher | undefined;
	/** A burst of writes (an editor's save, an atomic rename) is read once. */
	private readonly reloads: Debounce;

	/** `work` is the source's own scope: closing it stops the watch and the reads. */
	constructor(private readonly work: WorkScope, readonly agentDir: string, private readonly logger: Logger) {
		this.current = defaultPruneSettings(agentDir);
		this.changed = new Emitter((error) => logger.error(`settings listener: ${errorMessage(error)}`));
		this.onDidChange = this.changed.event;
		this.reloads = work.debounce(RELOAD_DELAY_MS, () => this.reload().then(() => undefined), (error) => this.logger.warn(`reading ${this.current.path}: ${errorMessage(error)}`));
		work.onClose(async () => {
			this.changed.dispose();
			await this.watcher?.close();
		});
	}

	get settings(): PruneSettings {
		return this.current;
	}

	/** Starts watching the file and reads it. */
	async start(): Promise<void> {
		// Followed through its folder: atomic replacements (ours, Pi's), in-place writes and a file
		// created later. Watched before the first read, so no change falls between the two.
		const path = this.current.path;
		this.watcher = new PathWatcher(this.work.child('watch'), [{ path, depth: 0 }], () => this.reloads.schedule(), (error) => this.logger.warn(`watching ${path}: ${errorMessage(error)}`));
		await this.watcher.ready();
		if (!this.work.isClosed) {
			await this.work.run(() => this.reload());
		}
	}

	/** Changes `contextPrune` in the file, then re-reads it (listeners hear the new settings). */
	async update(mutate: PruneMutation): Promise<PruneSettingsWrite> {
		const written = await updatePruneSettings(this.agentDir, mutate);
		await this.reload();
		return written;
	}

	/** Reads the file again; listeners hear about it only when something changed. */
	async reload(): Promise<PruneSettings> {
		const next = await readPruneSettings(this.agentDir, FILE_SNAPSHOT_RELEASE);
		if (sameSettings(next, this.current)) {
			return this.current;
		}
		// A new object only when something changed, so snapshots keyed on it stay valid.
		this.current = next;
		if (!this.work.isClosed) {
			this.changed.fire(next);
		}
		return next;
	}
}

function sameSettings(a: PruneSettings, b: PruneSettings): boolean {
	return a.path === b.path && a.rules.version === b.rules.version && isDeepStrictEqual(a.raw, b.raw) && isDeepStrictEqual(a.fileState, b.fileState);
}
