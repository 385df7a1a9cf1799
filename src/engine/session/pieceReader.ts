/**
 * Reading a session in pieces into one model. Pure.
 *
 * Each piece is the text after the previous one's last complete line (as `appendToSession` takes
 * it), or complete lines a writer already parsed. The model comes once, at the end: a 100 MB file
 * read in 64 KB pieces, or thousands of entries written back, would otherwise copy the entry list
 * once per piece. The reader owns the arrays it fills; `model()` hands them over, after which it
 * takes no more pieces.
 */
import { seedAppendedContext } from './context';
import { EntryIndex } from './entryIndex';
import { splitJsonlLines } from './jsonl';
import { checkLinks } from './linkCheck';
import type { ParsedValue } from './migrate';
import type { SessionModel } from './model';
import { checkedDepth, collectEntries, inLineOrder, nameAfter, parseLines, parseSessionSteps } from './parse';
import { SessionSnapshot } from './snapshot';
import type { SessionDiagnostic, SessionEntry } from './types';
import { runSteps, type Steps } from '../steps';

/** One complete line as its writer serialized it, with the value it parses back to. */
export interface ParsedLine {
	/** The line's text (its final `\n` may be included). */
	readonly text: string;
	/** `JSON.parse(text)`. */
	readonly value: unknown;
}

export class SessionPieceReader {
	/** The snapshot the pieces extend: the first piece's, or (with `after`) a copy of the model continued. */
	private first: SessionSnapshot | undefined;
	/** The model `after` continues: the result reuses its context. */
	private continued: SessionSnapshot | undefined;
	private entries: SessionEntry[] = [];
	private entryLines: number[] = [];
	private diagnostics: SessionDiagnostic[] = [];
	private name: string | undefined;
	private lineCount = 0;
	private pendingTail = '';
	private done = false;

	/**
	 * A reader whose pieces follow `previous` (its pending tail first, as `appendToSession` takes
	 * text); undefined when `appendToSession` could not continue it either (no header, or a v1/v2
	 * file). In steps: an older snapshot's index is copied (100,000 entries on a large session).
	 */
	static *afterSteps(previous: SessionModel): Steps<SessionPieceReader | undefined> {
		if (!(previous instanceof SessionSnapshot) || previous.header === undefined || previous.migrated) {
			return undefined;
		}
		const reader = new SessionPieceReader();
		// Extending the newest snapshot's index in place keeps it exact (see entryIndex.ts); an older one's is copied.
		const index = previous.index.canExtend(previous.entries.length) ? previous.index : yield* EntryIndex.buildSteps(previous.entries);
		reader.first = new SessionSnapshot({ ...previous, index });
		reader.continued = previous;
		reader.take(previous);
		reader.name = previous.name;
		reader.lineCount = previous.lineCount;
		reader.pendingTail = previous.pendingTail;
		return reader;
	}

	/** Adds the next piece; false when the file cannot be read in pieces (no header, or a v1/v2 file Pi migrates as a whole). */
	push(text: string): boolean {
		this.checkOpen();
		const first = this.first;
		if (first === undefined && !text.includes('\n')) {
			this.pendingTail = text; // not one complete line yet: the header is still to come
			return true;
		}
		if (first === undefined) {
			const model = runSteps(parseSessionSteps(text));
			if (!(model instanceof SessionSnapshot) || model.header === undefined || model.migrated) {
				return false;
			}
			this.first = model;
			this.take(model);
			this.name = model.name;
			this.lineCount = model.lineCount;
			this.pendingTail = model.pendingTail;
			return true;
		}
		const split = splitJsonlLines(text, this.lineCount + 1);
		const diagnostics: SessionDiagnostic[] = [];
		const tooDeep = new Set<number>();
		this.add(first, parseLines(split.lines, diagnostics, tooDeep), diagnostics, tooDeep);
		this.lineCount += split.consumedLineCount;
		this.pendingTail = split.pendingTail;
		return true;
	}

	/**
	 * Adds complete lines already parsed (a writer that read its own lines back), as `push` of
	 * their text would, without parsing them again. False when nothing has been read yet or the
	 * last piece ended mid-line (the lines would not start lines of their own).
	 */
	pushParsed(lines: readonly ParsedLine[]): boolean {
		this.checkOpen();
		const first = this.first;
		if (first === undefined || this.pendingTail !== '') {
			return false;
		}
		const diagnostics: SessionDiagnostic[] = [];
		const tooDeep = new Set<number>();
		const values = lines.map(({ text, value }, at) => checkedDepth(value, text.length, this.lineCount + 1 + at, diagnostics, tooDeep));
		this.add(first, values, diagnostics, tooDeep);
		this.lineCount += lines.length;
		return true;
	}

	/** The model of every piece pushed (that of an empty file when none was; the continued model itself when nothing was added). */
	model(): SessionModel {
		this.done = true;
		const first = this.first;
		if (first === undefined) {
			return runSteps(parseSessionSteps(this.pendingTail));
		}
		const continued = this.continued;
		if (continued !== undefined && this.lineCount === continued.lineCount && this.pendingTail === continued.pendingTail) {
			return continued;
		}
		const next = new SessionSnapshot({
			header: first.header,
			version: first.version,
			migrated: false,
			entries: this.entries,
			entryLines: this.entryLines,
			diagnostics: this.diagnostics,
			name: this.name,
			lineCount: this.lineCount,
			pendingTail: this.pendingTail,
			index: first.index,
		});
		if (continued !== undefined) {
			seedAppendedContext(continued, next, this.entries.slice(continued.entries.length));
		}
		return next;
	}

	private checkOpen(): void {
		if (this.done) {
			throw new Error('SessionPieceReader: the model was already taken');
		}
	}

	private add(first: SessionSnapshot, values: readonly ParsedValue[], diagnostics: SessionDiagnostic[], tooDeep: ReadonlySet<number>): void {
		const from = this.entries.length;
		collectEntries(values, this.entries, this.entryLines, diagnostics, tooDeep, this.diagnostics);
		// Extended in place: the first piece's snapshot is never handed out, and a continued one's stays exact.
		first.index.extend(this.entries, from);
		checkLinks(this.entries, this.entryLines, from, first.index, diagnostics);
		for (const diagnostic of inLineOrder(diagnostics)) {
			this.diagnostics.push(diagnostic);
		}
		this.name = nameAfter(this.name, this.entries, from);
	}

	/** Starts from a model's lists: copies, made at once (a copy of 100,000 entries is well under a millisecond). */
	private take(model: SessionSnapshot): void {
		this.entries = model.entries.slice();
		this.entryLines = model.entryLines.slice();
		this.diagnostics = model.diagnostics.slice();
	}
}
