/**
 * What the release detection gathers while it walks Pi's settings: extension files Pi would load
 * (candidates, not yet identified), warnings, the places searched, and the paths whose changes
 * could change the answer.
 */
import type { CopyScope, FoundBy, ReleaseWarning, SourceKind } from '../../engine/release';

/** One extension file Pi would load, with where it comes from. */
export interface Candidate {
	readonly file: string;
	/** The package folder whose package.json identifies the file. */
	readonly root: string;
	readonly enabled: boolean;
	/** Pi's resource precedence: lower wins (0 project entry … 4 package resource). */
	readonly rank: number;
	readonly scope: CopyScope;
	readonly foundBy: FoundBy;
	readonly sourceKind: SourceKind;
	readonly entry: string | undefined;
	readonly settingsFile: string | undefined;
	/** The exact version the entry pins (`npm:x@2.4.0`, a `v2.4.0` git ref), if any. */
	readonly pinned: string | undefined;
}

/** A path that decided the answer: the path itself, and what lies up to `depth` levels below it. */
export interface WatchTarget {
	readonly path: string;
	readonly depth: number;
}

export class DetectionLog {
	readonly candidates: Candidate[] = [];
	readonly warnings: ReleaseWarning[] = [];
	readonly searched: string[] = [];
	readonly watch: WatchTarget[] = [];

	search(path: string): void {
		if (!this.searched.includes(path)) {
			this.searched.push(path);
		}
	}

	follow(path: string, depth = 0): void {
		this.watch.push({ path, depth });
	}

	/** Adds a warning once (the same broken file can be met by two routes). */
	warn(warning: ReleaseWarning | undefined): void {
		const key = JSON.stringify(warning);
		if (warning && !this.warnings.some((known) => JSON.stringify(known) === key)) {
			this.warnings.push(warning);
		}
	}
}

/** Precedence rank of Pi's resource loader (0.73.1 `resourcePrecedenceRank`). */
export function precedenceRank(scope: CopyScope, foundBy: FoundBy): number {
	if (foundBy === 'packages') {
		return 4;
	}
	return (scope === 'project' ? 0 : 2) + (foundBy === 'extensions' ? 0 : 1);
}
