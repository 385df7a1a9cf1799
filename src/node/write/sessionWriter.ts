/**
 * Appends entry drafts to an idle Pi session file, safely: the entry point of write-back.
 *
 * Right before writing it reads what was appended since the caller's model (or the whole file),
 * and refuses unless the file is a clean version-3 session ending in a complete line, outside an
 * open tool-call turn, quiet for `quietMs`, and not held by a Pi process. Conditions that clear by
 * themselves (a half-written line, a burst of writes) are waited for up to `maxWaitMs`. Then the
 * lines are appended and read back (see `appendLines.ts`, which also documents the residual race:
 * Pi takes no lock, so none of this is a lock either).
 */
import { SessionPieceReader, type ParsedLine, type SessionModel } from '../../engine/session';
import {
	checkModelWritable,
	InvalidDraftError,
	prepareEntriesSteps,
	refusal,
	type WritableDraft,
	type PreparedEntry,
	type RandomBytes,
	type WriteRefusal,
	unfinishedLineMessage,
} from '../../engine/write';
import { appendLines, type AppendHooks, type LineToAppend } from './appendLines';
import { pooledRandomBytes } from './pooledRandomBytes';
import { mapSteps, Pacer, type Steps } from '../../engine/steps';
import type { SliceRunner } from '../../work';
import { describeHolders, detectPiHolders } from './piHolders';
import type { PiHolderCheck } from './piHolderTypes';
import { readSessionFileState, type SessionBase, type SessionFileState } from './sessionFileState';
import { describeDisturbance, type AttemptResult, type WriteEntriesResult } from './writeResult';
import { errorMessage } from '../../base/errorMessage';
import { pushLinesSteps } from '../sessions/appendedLines';

export const DEFAULT_QUIET_MS = 3000;
export const DEFAULT_MAX_WAIT_MS = 1000;
export const DEFAULT_POLL_MS = 100;

export interface WriteEntriesOptions {
	/** The model the caller already has and the offset it was read to; without it the whole file is read. */
	readonly base?: SessionBase;
	/** The file must not have been modified for this long (default 3 s). */
	readonly quietMs?: number;
	/** How long to keep retrying conditions that clear by themselves (default 1 s; 0 = never wait). */
	readonly maxWaitMs?: number;
	readonly pollMs?: number;
	/** Default: the platform's process scan (`detectPiHolders`). */
	readonly checkPiHolders?: PiHolderCheck;
	/** Current time, for entry timestamps and the quiet period (default: the system clock). */
	readonly clock?: () => Date;
	readonly randomBytes?: RandomBytes;
	readonly sleep?: (ms: number) => Promise<void>;
	/** Called with the model about to be written to; a string refuses the write (`plan-stale`). */
	readonly revalidate?: (model: SessionModel) => string | undefined;
	readonly hooks?: AppendHooks;
	/**
	 * Build the session's model after the write (default true). A caller whose own reader follows
	 * the file (the extension's session store) says false: the model of tens of megabytes of
	 * entries would be built twice, and building it extends the base model's shared index, which
	 * the other reader then has to build again.
	 */
	readonly modelAfterWrite?: boolean;
}

type Attempt = AttemptResult | { readonly kind: 'retry'; readonly refusal: WriteRefusal; readonly session?: SessionBase };

/**
 * `work` runs the reads and the planning in slices, stopped when it closes (nothing is written then);
 * once lines are appended, their read-back runs to its end.
 */
export async function writeEntriesToSession(work: SliceRunner, path: string, drafts: readonly WritableDraft[], options: WriteEntriesOptions = {}): Promise<WriteEntriesResult> {
	const maxWaitMs = options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
	const pollMs = Math.max(1, options.pollMs ?? DEFAULT_POLL_MS);
	const sleep = options.sleep ?? ((ms: number) => new Promise<void>((done) => setTimeout(done, ms)));
	const notes = new Set<string>();
	let base = options.base;
	let waitedMs = 0;
	let linesCaughtUp = 0;
	for (let attempts = 1; ; attempts++) {
		const outcome = await attempt(work, path, drafts, base, options, notes, (lines) => {
			linesCaughtUp += lines;
		});
		const common = { attempts, waitedMs, notes: [...notes] };
		if (outcome.kind !== 'retry') {
			return outcome.kind === 'written' ? { ...outcome, ...common, linesCaughtUp } : { ...outcome, ...common };
		}
		if (waitedMs + pollMs > maxWaitMs) {
			return { kind: 'refused', refusal: outcome.refusal, session: outcome.session, ...common };
		}
		await sleep(pollMs);
		waitedMs += pollMs;
		base = outcome.session ?? base;
	}
}

async function attempt(
	work: SliceRunner,
	path: string,
	drafts: readonly WritableDraft[],
	base: SessionBase | undefined,
	options: WriteEntriesOptions,
	notes: Set<string>,
	onCaughtUp: (lines: number) => void,
): Promise<Attempt> {
	const read = await safely(() => readSessionFileState(work, path, base));
	if (read.kind === 'error') {
		return refused(refusal('io-error', `the session file could not be read: ${read.message}`));
	}
	if (read.value.kind === 'missing') {
		return refused(refusal('missing', 'the session file does not exist'));
	}
	if (read.value.kind === 'rewritten') {
		return refused(refusal('rewritten', `the file was rewritten since it was read (${read.value.reason})`));
	}
	const state = read.value.state;
	onCaughtUp(state.linesCaughtUp);
	const blocked = await preconditionFailure(path, state, options, notes);
	if (blocked !== undefined) {
		return blocked.retryable ? { kind: 'retry', refusal: blocked, session: state } : refused(blocked, state);
	}
	if (drafts.length === 0) {
		return { kind: 'written', entries: [], session: state, written: undefined };
	}
	let prepared: PreparedEntry[];
	try {
		prepared = await prepare(work, drafts, state.model, options);
	} catch (error) {
		if (error instanceof InvalidDraftError) {
			return refused(refusal('invalid-draft', error.message), state);
		}
		throw error;
	}
	return append(work, path, state, prepared, options);
}

/** Every check that needs the file but not our lines; undefined when the write may go ahead. */
async function preconditionFailure(path: string, state: SessionFileState, options: WriteEntriesOptions, notes: Set<string>): Promise<WriteRefusal | undefined> {
	const modelProblem = checkModelWritable(state.model);
	if (modelProblem !== undefined) {
		return modelProblem;
	}
	if (state.size !== state.consumedBytes) {
		return refusal('partial-line', unfinishedLineMessage(state.model.lineCount + 1));
	}
	const quietMs = options.quietMs ?? DEFAULT_QUIET_MS;
	const ageMs = (options.clock ?? (() => new Date()))().getTime() - state.mtimeMs;
	// quietMs 0 disables the check (file times and Date.now() differ in sub-millisecond rounding).
	if (quietMs > 0 && ageMs < quietMs) {
		const when = ageMs < 0 ? 'has a modification time in the future (clock skew?)' : `was modified ${formatSeconds(ageMs)} ago`;
		return refusal('recently-modified', `the file ${when}; it must be quiet for ${formatSeconds(quietMs)} (Pi may be working on it)`);
	}
	const report = await (options.checkPiHolders ?? detectPiHolders)({ sessionPath: path, cwd: state.model.header?.cwd });
	if (report.note !== undefined) {
		notes.add(report.note);
	}
	if (report.holders.length > 0) {
		return refusal('pi-running', `Pi is running on this session: ${describeHolders(report.holders)}`);
	}
	const stale = options.revalidate?.(state.model);
	return stale === undefined ? undefined : refusal('plan-stale', stale);
}

/**
 * The drafts' envelopes and lines, in slices (before the last-moment check: if the file changes
 * meanwhile, that check sees it and nothing is written).
 */
function prepare(work: SliceRunner, drafts: readonly WritableDraft[], model: SessionModel, options: WriteEntriesOptions): Promise<PreparedEntry[]> {
	const headerId = model.header?.id;
	return work.sliced(prepareEntriesSteps(drafts, {
		parentId: model.leafId,
		isTaken: (id) => id === headerId || model.entryById(id) !== undefined,
		randomBytes: options.randomBytes ?? pooledRandomBytes(),
		now: options.clock ?? (() => new Date()),
		// The entries as read back are kept only to build the model after the write from them.
		entriesAsBuilt: options.modelAfterWrite === false,
	}));
}

async function append(work: SliceRunner, path: string, state: SessionFileState, prepared: readonly PreparedEntry[], { hooks, modelAfterWrite = true }: WriteEntriesOptions): Promise<Attempt> {
	const lines = await work.sliced(mapSteps(prepared, (entry): LineToAppend => ({ id: entry.entry.id, bytes: Buffer.from(entry.line, 'utf8') })));
	const outcome = await safely(() => appendLines(work, path, state, lines, hooks));
	if (outcome.kind === 'error') {
		return refused(refusal('io-error', `the session file could not be written: ${outcome.message}`), state);
	}
	const result = outcome.value;
	if (result.kind === 'changed') {
		return { kind: 'retry', refusal: refusal('changed', `${result.reason}; nothing was written`), session: state };
	}
	const { verification, attempted } = result;
	// Intact lines follow one another from the first byte we wrote.
	const session = modelAfterWrite ? await afterWrite(work, path, state, verification.ok ? prepared.slice(0, attempted) : [], result.tail) : undefined;
	if (verification.ok && attempted === prepared.length && result.stoppedBecause === undefined) {
		return { kind: 'written', entries: prepared, session, written: result.written };
	}
	return {
		kind: 'disturbed',
		entries: prepared,
		attempted,
		lines: verification.lines,
		message: describeDisturbance(verification.lines, attempted, prepared.length, result.stoppedBecause),
		session,
	};
}

/**
 * The model advanced by the bytes read back after writing (`tail`: ours and anything after them),
 * in slices: a first flush writes tens of megabytes. `landed` are entries of ours known to start
 * the tail intact: each was parsed back from its line when it was prepared, so only the bytes
 * after them are parsed here.
 */
async function afterWrite(work: SliceRunner, path: string, state: SessionFileState, landed: readonly PreparedEntry[], tail: Buffer): Promise<SessionBase> {
	// Our lines are in the file: what it now holds is read to the end, whatever closes meanwhile.
	const model = await work.sliced(modelAfterWriteSteps(state.model, landed, tail), undefined, { toTheEnd: true });
	if (model !== undefined) {
		return { model, consumedBytes: state.consumedBytes + tail.lastIndexOf(0x0a) + 1 };
	}
	// Unreachable for the version-3 files we write to; a cold read keeps the answer truthful anyway.
	const read = await readSessionFileState(work, path);
	return read.kind === 'ok' ? read.state : state;
}

function* modelAfterWriteSteps(model: SessionModel, landed: readonly PreparedEntry[], tail: Buffer): Steps<SessionModel | undefined> {
	const reader = yield* SessionPieceReader.afterSteps(model);
	if (reader === undefined) {
		return undefined;
	}
	const pacer = new Pacer();
	let start = 0;
	let landedBytes = 0;
	for (let end = 0; end < landed.length; end++) {
		const { line } = landed[end] as PreparedEntry;
		landedBytes += Buffer.byteLength(line);
		if (pacer.due(line.length) || end === landed.length - 1) {
			if (!reader.pushParsed(landed.slice(start, end + 1).map((entry): ParsedLine => ({ text: entry.line, value: entry.entry })))) {
				return undefined;
			}
			start = end + 1;
			yield;
		}
	}
	return (yield* pushLinesSteps(reader, tail.subarray(landedBytes))) ? reader.model() : undefined;
}

function refused(reason: WriteRefusal, session?: SessionBase): Attempt {
	return { kind: 'refused', refusal: reason, session };
}

/** What `run` gave, or its error's message (a file that cannot be read or written is a refusal, not a crash). */
async function safely<T>(run: () => T | Promise<T>): Promise<{ kind: 'ok'; value: T } | { kind: 'error'; message: string }> {
	try {
		return { kind: 'ok', value: await run() };
	} catch (error) {
		return { kind: 'error', message: errorMessage(error) };
	}
}

function formatSeconds(ms: number): string {
	return `${(ms / 1000).toFixed(1)} s`;
}
