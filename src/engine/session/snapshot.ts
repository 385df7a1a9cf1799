/**
 * The immutable snapshot behind `SessionModel`. Pure.
 */
import type { SessionModel } from './model';
import type { EntryIndex } from './entryIndex';
import type { SessionDiagnostic, SessionEntry, SessionHeader } from './types';

export interface SnapshotParts {
	readonly header: SessionHeader | undefined;
	readonly version: number;
	readonly migrated: boolean;
	readonly entries: readonly SessionEntry[];
	/** 1-based line of each entry, parallel to `entries`. */
	readonly entryLines: readonly number[];
	readonly diagnostics: readonly SessionDiagnostic[];
	readonly name: string | undefined;
	readonly lineCount: number;
	readonly pendingTail: string;
	readonly index: EntryIndex;
}

export class SessionSnapshot implements SessionModel {
	readonly header: SessionHeader | undefined;
	readonly version: number;
	readonly migrated: boolean;
	readonly entries: readonly SessionEntry[];
	readonly entryLines: readonly number[];
	readonly diagnostics: readonly SessionDiagnostic[];
	readonly leafId: string | null;
	readonly name: string | undefined;
	readonly lineCount: number;
	readonly pendingTail: string;
	readonly index: EntryIndex;

	constructor(parts: SnapshotParts) {
		this.header = parts.header;
		this.version = parts.version;
		this.migrated = parts.migrated;
		this.entries = parts.entries;
		this.entryLines = parts.entryLines;
		this.diagnostics = parts.diagnostics;
		this.name = parts.name;
		this.lineCount = parts.lineCount;
		this.pendingTail = parts.pendingTail;
		this.index = parts.index;
		this.leafId = this.entries.at(-1)?.id ?? null;
	}

	entryById(id: string): SessionEntry | undefined {
		const at = this.index.positionOf(id, this.entries.length);
		return at === undefined ? undefined : this.entries[at];
	}

	lineOf(entry: SessionEntry): number | undefined {
		for (const at of this.index.positionsOf(entry.id, this.entries.length)) {
			if (this.entries[at] === entry) {
				return this.entryLines[at];
			}
		}
		return undefined;
	}

	labelOf(id: string): string | undefined {
		return this.index.labelOf(id, this.entries.length);
	}
}
