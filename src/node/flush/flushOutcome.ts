/**
 * What `flushSession` reports: the outcome kind, pi-condense's notice text, every notice in order,
 * and what was written. Types and small constructors.
 */
import { NoticeList, type FlushReport } from '../../engine/flush';
import type { SentChange } from '../../engine/preview';
import type { PreparedEntry, WriteRefusal } from '../../engine/write';
import type { WrittenBytes } from '../write/appendLines';

export type FlushOutcomeKind =
	/** Entries were appended. */
	| 'written'
	/** Nothing to do (nothing pending, no eligible chain); the file is untouched. */
	| 'nothing'
	/** Not done: pruning disabled, or the session may not be written now (see `advice`). Untouched. */
	| 'refused'
	/** A summarizer call failed (entries of the batches before it may have been written), or the write was disturbed. */
	| 'failed'
	/** Cancelled by the caller; the file is untouched. */
	| 'aborted';

export interface FlushOutcome {
	readonly kind: FlushOutcomeKind;
	/** The final notice, as `/pruner now` or `/pruner compact` words it. */
	readonly message: string;
	/** Every notice in order (the last one is `message`). */
	readonly notices: NoticeList;
	/** What the user can do, for `refused` and `failed`. */
	readonly advice?: string;
	/** The entries appended (in file order), when any were. */
	readonly entries?: readonly PreparedEntry[];
	/** Where those entries' bytes are and their digest, when they went in cleanly (what Undo Last Prune checks). */
	readonly written?: WrittenBytes;
	readonly report?: FlushReport;
	/**
	 * The whole request the model is sent before and after the entries written (measured as the
	 * estimate before the prune is: `sentAfterDraftsSteps`), when they were all written.
	 */
	readonly sent?: SentChange;
	/** Which summarizer answered (`provider/id` or the offline one). */
	readonly summarizer?: string;
	/** Why the summaries were written offline, when they were. */
	readonly offlineReason?: string;
	readonly refusal?: WriteRefusal;
}

export function outcome(kind: FlushOutcomeKind, message: string, extra: Omit<FlushOutcome, 'kind' | 'message' | 'notices'> & { readonly notices?: NoticeList } = {}): FlushOutcome {
	return { kind, message, ...extra, notices: extra.notices ?? NoticeList.of(message) };
}
