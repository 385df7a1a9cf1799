/**
 * Keeps an eye on the entries our own flushes appended. Pi does not re-read a session while it runs:
 * if it was attached after all, its next entry continues from its own leaf and our entries end up
 * on a side branch ("stranded"). Each later change of the session is checked with the engine's
 * `checkWrittenEntriesSteps` (in slices: the active path is walked); a stranded batch is reported once, and a batch that Pi continued from (or
 * that is gone) is no longer watched.
 */
import type { SessionModel } from '../../engine/session';
import { checkWrittenEntriesSteps, type WrittenEntriesState } from '../../engine/write';
import type { SliceRunner } from '../../work';

export type StrandedEntries = Extract<WrittenEntriesState, { kind: 'stranded' }>;

export class WrittenEntriesWatch {
	private readonly written = new Map<string, readonly string[]>();

	/** `work` runs the checks in slices (its owner's scope). */
	constructor(private readonly work: SliceRunner) {}

	/** Starts watching the ids just appended to `path` (replacing an earlier batch of that file). */
	track(path: string, ids: readonly string[]): void {
		if (ids.length > 0) {
			this.written.set(path, ids);
		}
	}

	isTracked(path: string): boolean {
		return this.written.has(path);
	}

	/** Checks the session after it changed; the stranded state the first time it is seen, else undefined. */
	async check(path: string, model: SessionModel): Promise<StrandedEntries | undefined> {
		const ids = this.written.get(path);
		if (!ids) {
			return undefined;
		}
		const state = await this.work.sliced(checkWrittenEntriesSteps(model, ids));
		if (this.written.get(path) !== ids) {
			return undefined; // checked meanwhile, or another batch written: that one speaks
		}
		switch (state.kind) {
			case 'leaf':
				return undefined;
			case 'stranded':
			case 'continued':
			case 'missing':
				this.written.delete(path);
				return state.kind === 'stranded' ? state : undefined;
		}
	}

	forget(path: string): void {
		this.written.delete(path);
	}
}
