/**
 * Undo Last Prune: remembers, per session, where each write of ours went (its start, length and
 * SHA-256: `WrittenBytes`), kept in the workspace's memento so a window reload keeps them, and
 * truncates a session back to its length before our last write (`undoAppend`): only in a trusted
 * workspace, never while a flush runs or Pi holds the session, and only while the file ends
 * exactly with our bytes. Sets `piCondense.canUndoPrune` for the palette when the selected
 * session's file still ends where our last write did.
 */
import * as vscode from 'vscode';
import { restrictedModeRefusal } from '../../engine/views';
import { formatBytes } from '../../base/numberFormat';
import { undoAppend, type PiHolderCheck, type UndoResult, type WrittenBytes } from '../../node/write';
import { Disposable } from '../dispose';
import type { SessionController } from '../sessionController';

export interface PruneRecord {
	readonly path: string;
	readonly written: WrittenBytes;
	readonly entries: number;
	readonly mode: 'now' | 'compact' | 'rename';
	/** Epoch ms of the write. */
	readonly at: number;
}

export type UndoOutcome = UndoResult | { readonly kind: 'nothing'; readonly reason: string } | { readonly kind: 'refused'; readonly code: 'restricted' | 'flushing'; readonly reason: string; readonly notes: readonly string[] };

const MEMENTO_KEY = 'piCondense.pruneRecords';

const WRITERS: Readonly<Record<PruneRecord['mode'], string>> = { now: 'Summarize Pending Batches Now', compact: 'Compact Closed Chains Now', rename: 'Rename Session…' };
/** Writes remembered per session (each undo makes the one before it the last). */
const PER_SESSION = 5;
/** Sessions remembered at most. */
const SESSIONS = 20;

export class UndoPrunes extends Disposable {
	private records: PruneRecord[];

	/** `checkPiHolders`: whether Pi holds a session (the bridges first, then the process check); default: the process check. */
	constructor(
		private readonly controller: SessionController,
		private readonly memento: vscode.Memento,
		private readonly isFlushing: () => boolean,
		private readonly checkPiHolders?: PiHolderCheck,
	) {
		super();
		this.records = memento.get<PruneRecord[]>(MEMENTO_KEY, []).filter(isRecord);
		const update = (): void => this.updateContext();
		this._register(controller.onDidChangeSelection(update));
		this._register(controller.onDidChangeSessions(update));
		this.updateContext();
	}

	/** A write of ours that went in cleanly. */
	remember(path: string, written: WrittenBytes, entries: number, mode: PruneRecord['mode']): void {
		const record: PruneRecord = { path, written, entries, mode, at: Date.now() };
		const others = this.records.filter((candidate) => candidate.path !== path);
		const own = [...this.records.filter((candidate) => candidate.path === path), record].slice(-PER_SESSION);
		const kept = new Set([...others.map((candidate) => candidate.path), path].slice(-SESSIONS));
		this.save([...others, ...own].filter((candidate) => kept.has(candidate.path)));
	}

	/** The last write of ours to `path` (else, with no path, to any session). */
	last(path: string | undefined): PruneRecord | undefined {
		const candidates = path === undefined ? this.records : this.records.filter((record) => record.path === path);
		return candidates.reduce<PruneRecord | undefined>((best, record) => (!best || record.at > best.at ? record : best), undefined);
	}

	/** Whether the session's file, as last seen, still ends exactly where our last write to it ended. */
	undoable(path: string): boolean {
		const record = this.last(path);
		const size = this.controller.row(path)?.file.size;
		return record !== undefined && size === record.written.start + record.written.length;
	}

	/** Why no undo may run now, whatever the file says (checked before the question, so a refusal is not asked first). */
	refusal(): Extract<UndoOutcome, { kind: 'refused' }> | undefined {
		const restricted = restrictedModeRefusal('undo', vscode.workspace.isTrusted);
		if (restricted !== undefined) {
			return { kind: 'refused', code: 'restricted', reason: restricted, notes: [] };
		}
		return this.isFlushing() ? { kind: 'refused', code: 'flushing', reason: 'a flush is running; wait for it or cancel it, then undo', notes: [] } : undefined;
	}

	/** Removes our last write to `path`; says why not when it may not. */
	async undo(path: string | undefined): Promise<{ readonly record: PruneRecord | undefined; readonly outcome: UndoOutcome }> {
		const record = this.last(path);
		if (!record) {
			return { record, outcome: { kind: 'nothing', reason: 'Pi Condense has not pruned this session from this workspace, so there is nothing to undo.' } };
		}
		if (!this.controller.knowsSession(record.path)) {
			return { record, outcome: { kind: 'nothing', reason: `${record.path} is not one of the Pi sessions Pi Condense lists now, so it is not written.` } };
		}
		const refused = this.refusal();
		if (refused !== undefined) {
			return { record, outcome: refused };
		}
		const cwd = this.controller.row(record.path)?.file.header.cwd;
		const outcome = await undoAppend(record.path, record.written, { cwd: cwd || undefined, ...(this.checkPiHolders ? { checkPiHolders: this.checkPiHolders } : {}) });
		// Undone, or never undoable again (the file went on or changed): forgotten. Pi running or a change under way: kept.
		if (outcome.kind === 'undone' || ['appended', 'shrunk', 'replaced', 'bytes-differ', 'missing'].includes(outcome.code)) {
			this.save(this.records.filter((candidate) => candidate !== record));
		}
		return { record, outcome };
	}

	/** What a record removes, for messages: `3 entries (12.4 KB) appended at 14:02`. */
	static describe(record: PruneRecord): string {
		return `${record.entries} entr${record.entries === 1 ? 'y' : 'ies'} (${formatBytes(record.written.length)}) written by ${WRITERS[record.mode]} at ${new Date(record.at).toLocaleTimeString()}`;
	}

	private save(records: PruneRecord[]): void {
		this.records = records;
		void this.memento.update(MEMENTO_KEY, records);
		this.updateContext();
	}

	private updateContext(): void {
		const selected = this.controller.selected;
		void vscode.commands.executeCommand('setContext', 'piCondense.canUndoPrune', selected !== undefined && this.undoable(selected));
	}
}

function isRecord(value: unknown): value is PruneRecord {
	if (typeof value !== 'object' || value === null) {
		return false;
	}
	const record = value as Partial<PruneRecord>;
	const written = record.written;
	return typeof record.path === 'string' && typeof record.at === 'number' && typeof written === 'object' && written !== null
		&& [written.start, written.length, written.ino, written.dev].every((n) => typeof n === 'number') && typeof written.sha256 === 'string';
}
