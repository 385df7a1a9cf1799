/**
 * Why a write to a session file was refused, in words a user can act on. Pure.
 *
 * `retryable` marks conditions that usually clear by themselves within a moment (Pi finishing a
 * line, a tool turn, a burst of writes); the writer may wait for those, never for the others.
 */
import { CURRENT_SESSION_VERSION, type SessionModel } from '../session';
import { findOpenToolTurn } from './openToolTurn';

export type WriteRefusalCode =
	| 'missing'
	| 'no-header'
	| 'not-v3'
	| 'diagnostics'
	| 'partial-line'
	| 'open-tool-turn'
	| 'recently-modified'
	| 'pi-running'
	| 'rewritten'
	| 'changed'
	| 'invalid-draft'
	| 'plan-stale'
	| 'io-error';

export interface WriteRefusal {
	readonly code: WriteRefusalCode;
	/** What is wrong, specific to this file. */
	readonly message: string;
	/** What the user can do about it. */
	readonly advice: string;
	readonly retryable: boolean;
}

export const ADVICE_CLOSE_PI = 'Close Pi on this session, or run `/pruner now` inside Pi.';
const ADVICE_WAIT = 'Wait until Pi is idle and try again; if Pi is running on this session, close it or run `/pruner now` inside Pi.';
const ADVICE_REREAD = 'The session will be read again; then try again.';

const RETRYABLE: ReadonlySet<WriteRefusalCode> = new Set(['partial-line', 'open-tool-turn', 'recently-modified', 'changed']);

const ADVICE: Record<WriteRefusalCode, string> = {
	'missing': 'The session file is gone (deleted or moved to the trash).',
	'no-header': 'Nothing is written to a file without a valid header. Pi empties such a file when it opens it: keep a copy before resuming it in Pi, and restore its first line from a backup if you can.',
	'not-v3': 'Open the session in Pi once (Pi migrates older files to version 3 when it opens them), close Pi, then try again.',
	'diagnostics': 'Only files that read back cleanly are written to. Keep a copy of the file, then repair or remove the lines listed for this session.',
	'partial-line': `${ADVICE_WAIT} If the line stays unfinished, a write to it was interrupted (a process killed while writing): end that line with a newline or delete it (keep a copy of the file first) before resuming the session in Pi, or Pi joins its next entry to it and that entry is lost.`,
	'open-tool-turn': ADVICE_WAIT,
	'recently-modified': ADVICE_WAIT,
	'pi-running': ADVICE_CLOSE_PI,
	'rewritten': ADVICE_REREAD,
	'changed': ADVICE_REREAD,
	'invalid-draft': 'This is a bug in Pi Condense: please report it with the message above.',
	'plan-stale': ADVICE_REREAD,
	'io-error': 'Check that the session file is readable and writable.',
};

export function refusal(code: WriteRefusalCode, message: string): WriteRefusal {
	return { code, message, advice: ADVICE[code], retryable: RETRYABLE.has(code) };
}

/**
 * The checks that need only the model: a v3 header, no reading problems, a complete last line,
 * and a leaf outside any open tool-call turn. Undefined when the model allows a write.
 */
export function checkModelWritable(model: SessionModel): WriteRefusal | undefined {
	if (model.header === undefined) {
		return refusal('no-header', 'the file has no valid session header on its first line');
	}
	if (model.version !== CURRENT_SESSION_VERSION) {
		return refusal('not-v3', `the file is a version ${model.version} session; only version ${CURRENT_SESSION_VERSION} files are written to (Pi rewrites older files when it opens them${model.version > CURRENT_SESSION_VERSION ? ', and a newer format is unknown to us' : ''})`);
	}
	// What cannot change what is sent (an entry type only a newer Pi knows, which Pi leaves out of the context) does not stop a write.
	const blocking = model.diagnostics.filter((diagnostic) => diagnostic.writeSafe !== true);
	const first = blocking[0];
	if (first !== undefined) {
		const more = blocking.length > 1 ? ` (and ${blocking.length - 1} more)` : '';
		return refusal('diagnostics', `the file has reading problems: line ${first.line}: ${first.message}${more}`);
	}
	if (model.pendingTail !== '') {
		return refusal('partial-line', unfinishedLineMessage(model.lineCount + 1));
	}
	const turn = findOpenToolTurn(model);
	if (turn !== undefined) {
		return refusal('open-tool-turn', `the session ends inside a tool-call turn: assistant entry ${turn.assistantEntryId} is still waiting for the result of ${turn.missingToolCallIds.join(', ')}; nothing may be written between a tool call and its result`);
	}
	return undefined;
}

/** The file's last line has no final newline yet. */
export function unfinishedLineMessage(line: number): string {
	return `the file ends with an unfinished line (line ${line}, no final newline): Pi may be writing it right now`;
}
