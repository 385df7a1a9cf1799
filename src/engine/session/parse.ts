/**
 * Reading a session file's text into a `SessionModel`, cold or incrementally. Pure.
 *
 * Pi's rules (its session manager's loader): lines split on `\n` only, blank lines skipped, a line
 * that is not JSON skipped (we also record a diagnostic with its line number), the first parsed line
 * must be a `session` header with a string `id` or the whole file counts as empty, v1/v2 files are
 * migrated in memory, later `session` lines are ignored, unknown entry types are kept and chained.
 * Unlike Pi, a line nested too deeply to serialize is read for its top-level fields only, with an
 * error diagnostic (`jsonDepth.ts`), and parents that are not above their entry and repeated ids
 * are reported (`linkCheck.ts`).
 */
import { seedAppendedContext } from './context';
import { EntryIndex } from './entryIndex';
import { MAX_JSON_DEPTH, nestedDeeperThan, topLevelScalars } from './jsonDepth';
import { splitJsonlLines, type JsonlLine } from './jsonl';
import { checkLinks } from './linkCheck';
import { migrateValuesSteps, type ParsedValue } from './migrate';
import type { SessionModel } from './model';
import { toEntry, toHeader } from './parseEntry';
import { NEWEST_KNOWN_PI } from './piVersions';
import { SessionSnapshot } from './snapshot';
import type { SessionDiagnostic, SessionEntry, SessionHeader } from './types';
import { errorMessage } from '../../base/errorMessage';
import { PACE, type Steps } from '../steps';
import { isPlainObject } from '../../base/plainObject';

export const CURRENT_SESSION_VERSION = 3;

/** Reads a whole session file. */
export function* parseSessionSteps(text: string): Steps<SessionModel> {
	const reader = new WholeSessionReader();
	reader.push(text);
	return yield* reader.modelSteps();
}

/** Entries handled between two yields while a whole file's model is made. */
const WHOLE_PIECE = PACE * 16;

/**
 * A session file read as a whole, piece by piece: each piece's lines are parsed as it comes, and
 * the model is made at the end, in steps. A file whose first line decides how all the others read
 * (a v1 or v2 file, which Pi migrates as a whole; one without a valid header) is read this way,
 * and so is every `parseSessionSteps` text.
 */
export class WholeSessionReader {
	private readonly values: ParsedValue[] = [];
	private readonly diagnostics: SessionDiagnostic[] = [];
	private readonly tooDeep = new Set<number>();
	private lineCount = 0;
	private pendingTail = '';

	/** Adds the text after the previous piece's last complete line (its pending tail first). */
	push(text: string): void {
		const split = splitJsonlLines(text, this.lineCount + 1);
		for (const value of parseLines(split.lines, this.diagnostics, this.tooDeep)) {
			this.values.push(value);
		}
		this.lineCount += split.consumedLineCount;
		this.pendingTail = split.pendingTail;
	}

	/** The model of every piece pushed, yielding between pieces of work (see `src/engine/steps.ts`). */
	*modelSteps(): Steps<SessionModel> {
		const { values, diagnostics, tooDeep } = this;
		const first = values[0];
		const header = first === undefined ? undefined : toHeader(first.value);
		if (first !== undefined && header === undefined) {
			diagnostics.push({
				severity: 'error',
				line: first.line,
				message: 'the first entry is not a session header (type "session" with a string id). Pi treats this file as empty and overwrites it when it opens it: keep a copy before resuming it in Pi.',
			});
		}
		const version = header === undefined ? 0 : versionOf(header, first?.line ?? 1, diagnostics);
		const migrated = header !== undefined && version < CURRENT_SESSION_VERSION;
		const all = migrated ? yield* migrateValuesSteps(values, version) : values;
		const entries: SessionEntry[] = [];
		const entryLines: number[] = [];
		for (let from = 1; header !== undefined && from < all.length; from += WHOLE_PIECE) {
			collectEntries(all.slice(from, from + WHOLE_PIECE), entries, entryLines, diagnostics, tooDeep);
			yield;
		}
		const index = yield* EntryIndex.buildSteps(entries);
		for (let from = 0; from < entries.length; from += WHOLE_PIECE) {
			checkLinks(entries, entryLines, from, index, diagnostics, Math.min(entries.length, from + WHOLE_PIECE));
			yield;
		}
		return new SessionSnapshot({
			header,
			version,
			migrated,
			entries,
			entryLines,
			diagnostics: inLineOrder(diagnostics),
			name: nameAfter(undefined, entries, 0),
			lineCount: this.lineCount,
			pendingTail: this.pendingTail,
			index,
		});
	}
}

/**
 * Advances `previous` by the text written after its last complete line (its `pendingTail` first,
 * then whatever followed). Returns undefined when the change cannot be applied incrementally (no
 * valid header yet, or a v1/v2 file, which Pi rewrites as a whole): read the whole file again.
 */
export function appendToSession(previous: SessionModel, textAfterLastLine: string): SessionModel | undefined {
	if (!(previous instanceof SessionSnapshot) || previous.header === undefined || previous.migrated) {
		return undefined;
	}
	const split = splitJsonlLines(textAfterLastLine, previous.lineCount + 1);
	if (split.lines.length === 0) {
		return split.consumedLineCount === 0 && split.pendingTail === previous.pendingTail
			? previous
			: new SessionSnapshot({ ...previous, lineCount: previous.lineCount + split.consumedLineCount, pendingTail: split.pendingTail });
	}
	const diagnostics: SessionDiagnostic[] = [];
	const added: SessionEntry[] = [];
	const addedLines: number[] = [];
	const tooDeep = new Set<number>();
	collectEntries(parseLines(split.lines, diagnostics, tooDeep), added, addedLines, diagnostics, tooDeep, previous.diagnostics);
	const entries = previous.entries.concat(added);
	const index = previous.index.canExtend(previous.entries.length) ? previous.index : EntryIndex.build(previous.entries);
	index.extend(entries, previous.entries.length);
	const entryLines = previous.entryLines.concat(addedLines);
	checkLinks(entries, entryLines, previous.entries.length, index, diagnostics);
	const next = new SessionSnapshot({
		header: previous.header,
		version: previous.version,
		migrated: false,
		entries,
		entryLines,
		diagnostics: diagnostics.length === 0 ? previous.diagnostics : previous.diagnostics.concat(inLineOrder(diagnostics)),
		name: nameAfter(previous.name, entries, previous.entries.length),
		lineCount: previous.lineCount + split.consumedLineCount,
		pendingTail: split.pendingTail,
		index,
	});
	seedAppendedContext(previous, next, added);
	return next;
}

/** JSON-parses each line; lines nested too deeply are cut to their top-level fields and noted in `tooDeep`. */
export function parseLines(lines: readonly JsonlLine[], diagnostics: SessionDiagnostic[], tooDeep: Set<number>): ParsedValue[] {
	const values: ParsedValue[] = [];
	for (const { text, line } of lines) {
		let value: unknown;
		try {
			value = JSON.parse(text) as unknown;
		} catch (error) {
			const reason = errorMessage(error);
			diagnostics.push({ severity: 'error', line, message: `not valid JSON (${shorten(reason)}); Pi skips this line` });
			continue;
		}
		values.push(checkedDepth(value, text.length, line, diagnostics, tooDeep));
	}
	return values;
}

/** The line's value, or only its top-level fields (noted in `tooDeep`) when it is nested too deeply to use. */
export function checkedDepth(value: unknown, textLength: number, line: number, diagnostics: SessionDiagnostic[], tooDeep: Set<number>): ParsedValue {
	if (!nestedDeeperThan(value, textLength)) {
		return { value, line };
	}
	diagnostics.push({
		severity: 'error',
		line,
		message: `JSON nested more than ${MAX_JSON_DEPTH} levels deep, which cannot be displayed or sent to a model; the entry is kept in the tree but left out of the context`,
	});
	tooDeep.add(line);
	return { value: topLevelScalars(value), line };
}

/**
 * Turns parsed lines into entries, with their diagnostics. Something only a newer Pi writes is said
 * once per kind: not again when `earlier` (the diagnostics of the lines before) already says it.
 */
export function collectEntries(
	values: readonly ParsedValue[],
	entries: SessionEntry[],
	lines: number[],
	diagnostics: SessionDiagnostic[],
	tooDeep: ReadonlySet<number>,
	earlier: readonly SessionDiagnostic[] = [],
): void {
	let reported: Set<string> | undefined;
	for (const { value, line } of values) {
		if (isPlainObject(value) && value['type'] === 'session') {
			diagnostics.push({ severity: 'warning', line, message: 'a second session header; Pi ignores it' });
			continue;
		}
		const result = toEntry(value, tooDeep.has(line) ? 'nested too deeply' : undefined);
		if (result.entry === undefined) {
			diagnostics.push({ severity: 'error', line, message: result.error });
			continue;
		}
		if (result.warning !== undefined) {
			diagnostics.push({ severity: 'warning', line, message: result.warning });
		}
		const newer = result.newer;
		if (newer !== undefined) {
			reported ??= new Set([...earlier, ...diagnostics].flatMap((d) => (d.newerPi === undefined ? [] : [d.newerPi])));
			if (!reported.has(newer.kind)) {
				reported.add(newer.kind);
				diagnostics.push({ severity: 'warning', line, message: newer.message, newerPi: newer.kind, ...(newer.writeSafe ? { writeSafe: true as const } : {}) });
			}
		}
		entries.push(result.entry);
		lines.push(line);
	}
}

function versionOf(header: SessionHeader, line: number, diagnostics: SessionDiagnostic[]): number {
	const raw: unknown = header.version;
	if (raw === undefined) {
		return 1;
	}
	if (typeof raw !== 'number' || !Number.isFinite(raw)) {
		diagnostics.push({ severity: 'warning', line, message: `the header's version ${JSON.stringify(raw)} is not a number; read as version 1` });
		return 1;
	}
	if (raw > CURRENT_SESSION_VERSION) {
		diagnostics.push({ severity: 'warning', line, newerPi: 'version', message: `written by a newer Pi (session version ${raw}, Pi ${NEWEST_KNOWN_PI} writes version ${CURRENT_SESSION_VERSION}); read as version ${CURRENT_SESSION_VERSION} and never written to` });
	}
	return raw;
}

/** Pi's session name: the last `session_info` in file order, trimmed; an empty name clears it. */
export function nameAfter(previous: string | undefined, entries: readonly SessionEntry[], from: number): string | undefined {
	let name = previous;
	for (let at = from; at < entries.length; at++) {
		const entry = entries[at] as SessionEntry;
		if (entry.type === 'session_info') {
			name = entry.name?.trim() || undefined;
		}
	}
	return name;
}

/**
 * Diagnostics sorted by line (stable: a line's own problems keep their order). Appended lines come
 * after every earlier one, so a model read in steps lists them exactly as a cold read does.
 */
export function inLineOrder(diagnostics: SessionDiagnostic[]): SessionDiagnostic[] {
	for (let at = 1; at < diagnostics.length; at++) {
		if ((diagnostics[at] as SessionDiagnostic).line < (diagnostics[at - 1] as SessionDiagnostic).line) {
			return diagnostics.sort((a, b) => a.line - b.line);
		}
	}
	return diagnostics; // already in order, as a damaged file's one problem per line is
}

function shorten(text: string): string {
	return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
