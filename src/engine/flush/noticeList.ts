/**
 * A flush's notices in pi-condense's order, with the per-batch skip notices kept as numbers until
 * they are read: a first flush of a large session skips tens of thousands of trivial batches, and
 * their texts (9 MB on the realistic 100 MB session) lived through the whole flush, so the
 * collector copied them again and again while it ran. Texts are made when the list is iterated,
 * word for word those of `notices.ts`. Pure.
 */
import * as say from './notices';

const TRIVIAL = 0;
const DEDUPED = 1;
const OVERSIZED = 2;

/** One notice per skipped batch, as columns of numbers (no object per batch). */
export class SkippedBatchNotes {
	private readonly kinds: number[] = [];
	private readonly turns: number[] = [];
	private readonly calls: number[] = [];
	private readonly rawChars: number[] = [];
	private readonly summaryChars: number[] = [];

	constructor(private readonly minBatchChars: number) {}

	get count(): number {
		return this.kinds.length;
	}

	trivial(turn: number, calls: number, rawChars: number): void {
		this.add(TRIVIAL, turn, calls, rawChars, 0);
	}

	deduped(turn: number, calls: number, rawChars: number): void {
		this.add(DEDUPED, turn, calls, rawChars, 0);
	}

	oversized(turn: number, calls: number, summaryChars: number, rawChars: number): void {
		this.add(OVERSIZED, turn, calls, rawChars, summaryChars);
	}

	/** How many notes of each kind (for a shortened log). */
	tally(): { trivial: number; deduped: number; oversized: number } {
		const counts = [0, 0, 0];
		for (const kind of this.kinds) {
			counts[kind] = (counts[kind] ?? 0) + 1;
		}
		return { trivial: counts[TRIVIAL] ?? 0, deduped: counts[DEDUPED] ?? 0, oversized: counts[OVERSIZED] ?? 0 };
	}

	text(index: number): string {
		const turn = this.turns[index] ?? 0;
		const calls = this.calls[index] ?? 0;
		const raw = this.rawChars[index] ?? 0;
		switch (this.kinds[index]) {
			case TRIVIAL:
				return say.batchTrivialNotice(turn, calls, raw, this.minBatchChars);
			case DEDUPED:
				return say.batchDedupedNotice(turn, calls, raw);
			default:
				return say.batchOversizedNotice(turn, calls, this.summaryChars[index] ?? 0, raw);
		}
	}

	*texts(): Generator<string> {
		for (let i = 0; i < this.count; i++) {
			yield this.text(i);
		}
	}

	private add(kind: number, turn: number, calls: number, rawChars: number, summaryChars: number): void {
		this.kinds.push(kind);
		this.turns.push(turn);
		this.calls.push(calls);
		this.rawChars.push(rawChars);
		this.summaryChars.push(summaryChars);
	}
}

type NoticePart = string | SkippedBatchNotes;

/** Notices in order; iterating gives every text. Immutable once made. */
export class NoticeList implements Iterable<string> {
	private constructor(private readonly parts: readonly NoticePart[]) {}

	/** The parts in order; a list given as a part is spliced in. */
	static of(...parts: readonly (NoticePart | NoticeList)[]): NoticeList {
		return new NoticeList(parts.flatMap((part) => (part instanceof NoticeList ? part.parts : [part])));
	}

	get length(): number {
		return this.parts.reduce((sum, part) => sum + (typeof part === 'string' ? 1 : part.count), 0);
	}

	*[Symbol.iterator](): Iterator<string> {
		for (const part of this.parts) {
			if (typeof part === 'string') {
				yield part;
			} else {
				yield* part.texts();
			}
		}
	}

	/**
	 * Every notice, except that a run of more than `perRun` skip notes shows its first `perRun` and
	 * then one line counting the rest (what a log shows: 30,000 lines of skips help nobody).
	 */
	*shortened(perRun: number): Generator<string> {
		for (const part of this.parts) {
			if (typeof part === 'string') {
				yield part;
				continue;
			}
			for (let i = 0; i < Math.min(perRun, part.count); i++) {
				yield part.text(i);
			}
			if (part.count > perRun) {
				yield moreSkipsLine(part, perRun);
			}
		}
	}
}

function moreSkipsLine(notes: SkippedBatchNotes, shown: number): string {
	const { trivial, deduped, oversized } = notes.tally();
	return `pruner: … and ${notes.count - shown} more skipped batches (${notes.count} in all: ${trivial} trivial, ${deduped} deduplicated, ${oversized} oversized)`;
}
