/**
 * The pi-condense release to follow for each project the extension shows sessions of, kept
 * current: resolved when a project is first asked about, and again only when a file that decided
 * it changes (the user or project settings.json, trust.json, a found package.json, an install
 * folder appearing or disappearing after `pi install`, `pi update` or `pi remove`) or when the
 * user's choice changes. Listeners hear about a project only when its result changed. Renders
 * read the last result synchronously; nothing is resolved per render.
 */
import { resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { Logger } from '../../engine/ports';
import type { ReleaseResolution } from '../../engine/release';
import { Emitter } from '../../base/emitter';
import type { WatchTarget } from './candidates';
import { detectRelease, type Detected } from './detectRelease';
import type { GlobalNpmRoot } from './globalNpmRoot';
import { applyChoice, piHome, processGlobalNpmRoot, readChoice, type ChoiceReading } from './resolveRelease';
import { PathWatcher } from '../fs/pathWatcher';
import { errorMessage } from '../../base/errorMessage';
import { isWorkStopped, type Debounce, type SerialQueue, type WorkScope } from '../../work';

/** Changes are gathered this long, so `npm install` writing many files re-resolves once. */
const SETTLE_MS = 100;

export interface ReleaseSourceOptions {
	/** The source's own scope: closing it stops the watch and the resolutions under way. */
	readonly work: WorkScope;
	readonly agentDir: string;
	readonly logger: Logger;
	/** The `piCondense.release` value as read (`auto`, a version, or anything a user typed). */
	readonly choice?: unknown;
	readonly home?: string;
	readonly globalNpmRoot?: GlobalNpmRoot;
	/** False in a VS Code workspace that is not trusted: no project's `.pi` settings are followed. */
	readonly projectSettingsAllowed: boolean;
	/** Folders Pi itself is never followed into (the open workspace folders). */
	readonly excludedRoots?: readonly string[];
}

export interface ReleaseChange {
	/** The project whose release changed; undefined for the user scope alone. */
	readonly cwd: string | undefined;
	readonly resolution: ReleaseResolution;
}

interface Project {
	readonly cwd: string | undefined;
	detected: Detected | undefined;
	resolution: ReleaseResolution | undefined;
	first: Promise<ReleaseResolution> | undefined;
}

export class ReleaseSource {
	private readonly changed: Emitter<ReleaseChange>;
	readonly onDidChange;
	private readonly projects = new Map<string, Project>();
	private readonly home: string;
	private readonly globalNpmRoot: GlobalNpmRoot;
	private choice: ChoiceReading;
	private watcher: PathWatcher | undefined;
	private watchedKey = '';
	/** Resolutions run one at a time, so two changes never race to publish. */
	private readonly resolutions: SerialQueue;
	/** A change of what decided a release is followed once the burst (an `npm install`) settles. */
	private readonly refreshes: Debounce;

	constructor(private readonly options: ReleaseSourceOptions) {
		const work = options.work;
		this.changed = new Emitter((error) => options.logger.error(`release listener: ${errorMessage(error)}`));
		this.onDidChange = this.changed.event;
		this.home = options.home ?? piHome(process.env);
		this.globalNpmRoot = options.globalNpmRoot ?? processGlobalNpmRoot();
		this.choice = readChoice(options.choice, 'setting');
		this.resolutions = work.serialQueue();
		this.refreshes = work.debounce(SETTLE_MS, () => this.enqueue(async () => {
			for (const project of this.projects.values()) {
				if (project.detected && !this.closed) {
					await this.refresh(project, true);
				}
			}
			await this.rewatch();
		}).catch(() => undefined));
		work.onClose(async () => {
			this.changed.dispose();
			await this.resolutions.idle();
			await this.watcher?.close();
		});
	}

	private get closed(): boolean {
		return this.options.work.isClosed;
	}

	/** The release for sessions of a project (`cwd` from the session header; empty for none); resolved once, then followed. */
	resolve(cwd: string | undefined): Promise<ReleaseResolution> {
		const project = this.project(cwd);
		if (project.resolution) {
			return Promise.resolve(project.resolution);
		}
		project.first ??= this.enqueue(async () => {
			await this.refresh(project, false);
			await this.rewatch();
		}).then(() => project.resolution as ReleaseResolution, (error: unknown) => {
			// The next call tries again rather than keeping the failure.
			project.first = undefined;
			throw error;
		});
		return project.first;
	}

	/** The last result for a project, or undefined before its first resolution. */
	current(cwd: string | undefined): ReleaseResolution | undefined {
		return this.projects.get(cwd ?? '')?.resolution;
	}

	/** Applies a new `piCondense.release` value to every project (no file is read again). */
	setChoice(value: unknown): void {
		this.choice = readChoice(value, 'setting');
		for (const project of this.projects.values()) {
			if (project.detected) {
				this.publish(project, applyChoice(project.detected.detection, this.choice), true);
			}
		}
	}

	private project(cwd: string | undefined): Project {
		const key = cwd ?? '';
		let project = this.projects.get(key);
		if (!project) {
			project = { cwd: cwd || undefined, detected: undefined, resolution: undefined, first: undefined };
			this.projects.set(key, project);
		}
		return project;
	}

	/** A resolution after every one asked for before it; a failure is logged here and rejects for the caller. */
	private enqueue(task: () => Promise<void>): Promise<void> {
		const run = this.resolutions.run(task);
		run.catch((error: unknown) => {
			if (!isWorkStopped(error)) {
				this.options.logger.warn(`pi-condense release: ${errorMessage(error)}`);
			}
		});
		return run;
	}

	private async refresh(project: Project, notify: boolean): Promise<void> {
		project.detected = await detectRelease({
			agentDir: this.options.agentDir, cwd: project.cwd, home: this.home, globalNpmRoot: this.globalNpmRoot,
			projectSettingsAllowed: this.options.projectSettingsAllowed,
			excludedRoots: this.options.excludedRoots ?? [],
		});
		this.publish(project, applyChoice(project.detected.detection, this.choice), notify);
	}

	private publish(project: Project, next: ReleaseResolution, notify: boolean): void {
		if (project.resolution && isDeepStrictEqual(project.resolution, next)) {
			return;
		}
		project.resolution = next;
		if (notify && !this.closed) {
			this.changed.fire({ cwd: project.cwd, resolution: next });
		}
	}

	/** Watches what decided every project's answer; a new watch re-checks once for what it missed. */
	private async rewatch(): Promise<void> {
		const targets: WatchTarget[] = [...this.projects.values()].flatMap((project) => project.detected?.watch ?? []);
		const key = targetsKey(targets);
		if (key === this.watchedKey || this.closed) {
			return;
		}
		this.watchedKey = key;
		await this.watcher?.close();
		this.watcher = new PathWatcher(this.options.work.child('install watch'), targets, () => this.scheduleRefresh(), (error) => this.options.logger.warn(`watching pi-condense's install: ${errorMessage(error)}`));
		await this.watcher.ready();
		this.scheduleRefresh();
	}

	private scheduleRefresh(): void {
		this.refreshes.schedule();
	}
}

/** A stable key of a target list, to tell whether the watch must be rebuilt. */
function targetsKey(targets: readonly WatchTarget[]): string {
	return [...new Set(targets.map((target) => `${target.depth}:${resolve(target.path)}`))].sort().join('\n');
}
