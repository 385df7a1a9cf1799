/**
 * Watches a set of paths that may not exist yet (`<agentDir>/npm/node_modules/pi-condense/package.json`
 * before `pi install`), each with how deep below it changes matter. chokidar 4 does not follow a
 * path whose parent is missing, so each target is watched from its nearest existing ancestor, and
 * everything that is neither on the way to a target nor within its depth is ignored: the agent
 * dir's sessions, npm's other packages and a package's own node_modules are never walked.
 */
import { watch, type FSWatcher } from 'chokidar';
import { existsSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import type { WatchTarget } from './candidates';
import { closeWatcher } from '../fs/closeWatcher';

export class TargetWatcher {
	private readonly watcher: FSWatcher;
	private readonly targets: readonly WatchTarget[];
	private readonly scanned: Promise<void>;

	/** `onChange` hears every add, change and removal under the targets; `onError` what chokidar reports. */
	constructor(targets: readonly WatchTarget[], onChange: (path: string) => void, onError: (error: unknown) => void) {
		this.targets = targets.map((target) => ({ path: resolve(target.path), depth: target.depth }));
		const roots = [...new Set(this.targets.map((target) => nearestExisting(target.path)))];
		this.watcher = watch(roots, { ignoreInitial: true, ignored: (path) => !this.relevant(path) });
		this.scanned = new Promise((resolveReady) => this.watcher.once('ready', () => resolveReady()));
		this.watcher.on('all', (_event, path) => onChange(path));
		this.watcher.on('error', onError);
	}

	/** Resolves once the first scan is done (events after that are reported). */
	ready(): Promise<void> {
		return this.scanned;
	}

	close(): Promise<void> {
		return closeWatcher(this.watcher);
	}

	private relevant(path: string): boolean {
		const absolute = resolve(path);
		return this.targets.some((target) => {
			const below = relative(target.path, absolute);
			if (below === '') {
				return true;
			}
			if (!below.startsWith('..') && !isAbsoluteRelative(below)) {
				return below.split(sep).length <= target.depth;
			}
			// On the way down to the target.
			const above = relative(absolute, target.path);
			return !above.startsWith('..') && !isAbsoluteRelative(above);
		});
	}
}

/** A relative path between two drives on Windows comes back absolute. */
function isAbsoluteRelative(path: string): boolean {
	return resolve(path) === path;
}

function nearestExisting(path: string): string {
	let current = path;
	while (!existsSync(current) && dirname(current) !== current) {
		current = dirname(current);
	}
	return current;
}

/** A stable key of a target list, to tell whether the watch must be rebuilt. */
export function targetsKey(targets: readonly WatchTarget[]): string {
	return [...new Set(targets.map((target) => `${target.depth}:${resolve(target.path)}`))].sort().join('\n');
}
