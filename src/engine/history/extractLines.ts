/**
 * The history index's pass over complete lines of a session file: the list's summary (the same
 * rule as `summarizeLines`, so a row read from the index is the row the file gives), and the usage
 * records, pi-condense events and search texts of the entries. Incremental: the lines that follow
 * are passed with the summary this returned. Pure, in steps; never mutates its input.
 */
import { isPlainObject } from '../../base/plainObject';
import { isBlank, leadingWhitespaceLength } from '../session/jsonl';
import { summarizeValue, type SessionSummary, type SummaryDraft } from '../session/summary';
import { Pacer, type Steps } from '../steps';
import { entryFacts } from './entryFacts';
import type { CondenseEvent, SearchDoc, UsageRecord } from './historyRecords';
import { isAscii, parseLine, toUtf8Line, type RawLine } from './rawLine';

export interface ExtractedLines {
	readonly summary: SessionSummary;
	readonly usage: readonly UsageRecord[];
	readonly events: readonly CondenseEvent[];
	readonly docs: readonly SearchDoc[];
}

/**
 * Advances `previous` over `lines`: every `\n`-terminated line that follows what it has seen, in
 * file order, blank ones included (they count as lines).
 */
export function* extractLinesSteps(previous: SessionSummary, lines: readonly RawLine[]): Steps<ExtractedLines> {
	const draft: SummaryDraft = { ...previous };
	const usage: UsageRecord[] = [];
	const events: CondenseEvent[] = [];
	const docs: SearchDoc[] = [];
	const pacer = new Pacer();
	for (const raw of lines) {
		if (pacer.due(raw.bytes)) {
			yield;
		}
		draft.lineCount++;
		const line = contentOf(raw, draft);
		if (line === undefined) {
			continue;
		}
		const isFirst = draft.header === 'none';
		const { value, reading } = parsedLine(line, isFirst);
		summarizeValue(draft, value);
		if (isFirst || !isPlainObject(value)) {
			continue;
		}
		const facts = entryFacts(value, { lineNumber: draft.lineCount, line: reading });
		if (facts.usage) {
			usage.push(facts.usage);
		}
		if (facts.event) {
			events.push(facts.event);
		}
		if (facts.doc) {
			docs.push(facts.doc);
		}
	}
	return { summary: draft, usage, events, docs };
}

/** The line as Pi reads it: undefined when blank; the first content of the file without leading whitespace (Pi's `trim()`, a BOM included). */
function contentOf(line: RawLine, draft: SummaryDraft): RawLine | undefined {
	if (line.encoding === 'latin1') {
		return line; // only long lines that start with `{` come so: never blank, never the first content
	}
	if (isBlank(line.text)) {
		return undefined;
	}
	const nothingYet = draft.header === 'none' && draft.invalidLineCount === 0;
	const skip = nothingYet ? leadingWhitespaceLength(line.text) : 0;
	return skip === 0 ? line : { ...line, text: line.text.slice(skip) };
}

/**
 * The line parsed, and the reading its strings come from. The summary reads the texts of the first
 * line, of a `session_info` and of a user message: those are always taken from the UTF-8 reading.
 * Any other `latin1` line is parsed as it is: its few strings the index keeps are read back exactly
 * by `entryFacts` (`lineReading`), which reads the line again as UTF-8 where that cannot be done.
 */
function parsedLine(line: RawLine, isFirst: boolean): { value: unknown; reading: RawLine } {
	const first = isFirst ? toUtf8Line(line) : line;
	const value = parseLine(first);
	if (first.encoding === 'latin1' && summaryReadsText(value)) {
		const utf8 = toUtf8Line(first);
		return { value: parseLine(utf8), reading: utf8 };
	}
	return { value, reading: first };
}

/** True when the summary reads a text of the entry, or may read its timestamp and that is not ASCII (`Date.parse` then reads it). */
function summaryReadsText(value: unknown): boolean {
	return isPlainObject(value) && (value.type === 'session_info' || (value.type === 'message' && isPlainObject(value.message) && value.message.role === 'user')
		|| (typeof value.timestamp === 'string' && !isAscii(value.timestamp)));
}
