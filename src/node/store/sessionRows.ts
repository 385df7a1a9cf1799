/**
 * The session list as the sidebar shows it: one row per session file, with what is known so far
 * (header first; the summary and the reclaim figure arrive later from background work). Rows are
 * immutable; an update replaces the row.
 */
import type { SessionFile } from '../sessions/discoverSessions';
import type { SessionFileSummary } from '../sessions/summaryCache';
import type { RowReclaim } from '../../engine/views';

export type { RowReclaim };

export interface SessionRow {
	readonly file: SessionFile;
	readonly summary: SessionFileSummary | undefined;
	readonly reclaim: RowReclaim | undefined;
}

export class SessionRows {
	private readonly rows = new Map<string, SessionRow>();

	all(): readonly SessionRow[] {
		return [...this.rows.values()];
	}

	get(path: string): SessionRow | undefined {
		return this.rows.get(path);
	}

	has(path: string): boolean {
		return this.rows.has(path);
	}

	/** Adds a session or refreshes its file facts (a rewrite may change the header); returns true when new. */
	upsertFile(file: SessionFile): boolean {
		const previous = this.rows.get(file.path);
		this.rows.set(file.path, { file, summary: previous?.summary, reclaim: previous?.reclaim });
		return previous === undefined;
	}

	update(path: string, change: Partial<Omit<SessionRow, 'file'>> & { readonly size?: number }): SessionRow | undefined {
		const previous = this.rows.get(path);
		if (!previous) {
			return undefined;
		}
		const { size, ...rest } = change;
		const file = size === undefined ? previous.file : { ...previous.file, size };
		const next = { ...previous, ...rest, file };
		this.rows.set(path, next);
		return next;
	}

	delete(path: string): boolean {
		return this.rows.delete(path);
	}

	clear(): void {
		this.rows.clear();
	}

	/** Forgets every reclaim figure (the configuration changed). */
	clearReclaims(): void {
		for (const [path, row] of this.rows) {
			if (row.reclaim !== undefined) {
				this.rows.set(path, { ...row, reclaim: undefined });
			}
		}
	}
}
