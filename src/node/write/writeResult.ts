/**
 * What a write to a session file reports back, and how a disturbed write is put into words.
 */
import type { PreparedEntry, WriteRefusal, WrittenLineCheck } from '../../engine/write';
import type { WrittenBytes } from './appendLines';
import type { SessionBase } from './sessionFileState';

export interface ResultBase {
	/** How many times the preconditions were checked (1 when nothing had to be waited for). */
	readonly attempts: number;
	/** Time spent waiting between attempts, in milliseconds. */
	readonly waitedMs: number;
	/** Things the user should know even when the write went through (e.g. "could not check for Pi"). */
	readonly notes: readonly string[];
}

export type WriteEntriesResult =
	| ResultBase & {
		readonly kind: 'written';
		/** The entries as written, in file order; the last one is the session's new leaf. */
		readonly entries: readonly PreparedEntry[];
		/**
		 * The file read through our lines (and anything appended after them): pass it as the next
		 * `base`. Undefined when lines were written with `modelAfterWrite: false`.
		 */
		readonly session: SessionBase | undefined;
		/** Complete lines others appended between the given base and our write. */
		readonly linesCaughtUp: number;
		/** Where our bytes are in the file and their digest: what Undo Last Prune checks before it removes them. */
		readonly written: WrittenBytes | undefined;
	}
	| ResultBase & {
		readonly kind: 'refused';
		readonly refusal: WriteRefusal;
		/** The file as last read, when it could be read. */
		readonly session?: SessionBase;
	}
	| ResultBase & {
		/** Something else wrote while we did: see `lines`. Nothing was repaired or rewritten. */
		readonly kind: 'disturbed';
		/** Every entry we meant to write; only the first `attempted` were handed to the file. */
		readonly entries: readonly PreparedEntry[];
		readonly attempted: number;
		readonly lines: readonly WrittenLineCheck[];
		readonly message: string;
		readonly session?: SessionBase;
	};

export function describeDisturbance(lines: readonly WrittenLineCheck[], attempted: number, total: number, stoppedBecause: string | undefined): string {
	const parts: string[] = [];
	for (const line of lines) {
		const which = `line ${line.index + 1} of ${total} (entry ${line.id})`;
		switch (line.status) {
			case 'after-foreign-lines':
				parts.push(`${which} landed after ${line.foreignLinesBefore} line(s) from another writer, so its parent is no longer the entry before it and it may not be on the path Pi resumes from`);
				break;
			case 'damaged':
				parts.push(`${which} is in the file but not byte-identical (merged with or cut by another write)`);
				break;
			case 'missing':
				parts.push(`${which} is not in the file`);
				break;
			case 'out-of-order':
				parts.push(`${which} is in the file before an earlier line of ours`);
				break;
			case 'intact':
				break;
		}
	}
	if (attempted < total) {
		const rest = attempted + 1 === total ? `line ${total} was` : `lines ${attempted + 1}–${total} were`;
		parts.push(`${rest} not written${stoppedBecause === undefined ? '' : ` because ${stoppedBecause}`}`);
	} else if (stoppedBecause !== undefined) {
		parts.push(stoppedBecause);
	}
	return `Another process wrote to the session while Pi Condense did: ${parts.join('; ')}. Nothing was rewritten; read the session again and check whether the entries need to be applied again.`;
}

/** A result before the retry loop adds attempts, waiting time, notes and caught-up lines. */
export type AttemptResult = WriteEntriesResult extends infer R ? R extends WriteEntriesResult ? Omit<R, keyof ResultBase | 'linesCaughtUp'> : never : never;
