/**
 * A session file as the command line reads it (at once: the CLI is a process of its own): our session
 * model, the active branch, Pi's context, pi-condense's state on that branch and the blob reader of its
 * spill folder. (`src/node/store/openSession.ts` is the extension's: a session kept open and advanced.)
 */
import { buildCondenseStateSteps, type CondenseState } from '../engine/condense';
import type { BlobReader } from '../engine/ports';
import type { ReleaseRules } from '../engine/release/releases';
import { buildSessionContextSteps, getBranchSteps } from '../engine/session';
import type { SessionModel } from '../engine/session/model';
import type { ContextMessage, SessionEntry } from '../engine/session/types';
import { blobIdRefusal } from '../node/condense/blobFolder';
import { sessionBlobReader } from '../node/condense/sessionBlobReader';
import { readSessionModel } from '../node/store/readSessionModel';
import { describeSessionProblems } from './sessionProblems';
import { runSteps } from '../engine/steps';
import { errorMessage } from '../base/errorMessage';

export class SessionFileError extends Error {}

export interface CliSession {
	readonly path: string;
	readonly model: SessionModel;
	readonly branch: readonly SessionEntry[];
	/** Pi's context (system messages of Pi 1.x included). */
	readonly messages: readonly ContextMessage[];
	/** Read whether or not pruning is enabled now: the tree, stats and recovery need it. */
	readonly state: CondenseState;
	readonly blobs: BlobReader | undefined;
}

/**
 * Reads a session; its pi-condense state is rebuilt as `rules` rebuilds it. The file is read in
 * pieces, as the extension reads it, never as one string: a 100 MB session would otherwise hold
 * its text (twice, as UTF-16 where it is not Latin-1) beside its parsed entries.
 */
export async function readCliSession(path: string, rules: ReleaseRules): Promise<CliSession> {
	const model = await readCliModel(path);
	const branch = runSteps(getBranchSteps(model));
	return {
		path,
		model,
		branch,
		messages: runSteps(buildSessionContextSteps(model)).messages,
		state: runSteps(buildCondenseStateSteps(branch, rules, { lineOf: (entry) => model.lineOf(entry) })),
		blobs: sessionBlobReader(path, model.header.id),
	};
}

/** A session file's model, read in pieces; a file that cannot be read or has no header is a `SessionFileError`. */
export async function readCliModel(path: string): Promise<SessionModel & { readonly header: NonNullable<SessionModel['header']> }> {
	let model: SessionModel;
	try {
		model = (await readSessionModel(path)).model;
	} catch (error) {
		throw new SessionFileError(`cannot read ${path}: ${errorMessage(error)}`);
	}
	if (model.header === undefined) {
		const problems = describeSessionProblems(path, model.diagnostics);
		const detail = problems.length === 0 ? '' : `\n${problems.join('\n')}`;
		throw new SessionFileError(`${path} is not a Pi session file (no session header on its first line)${detail}`);
	}
	return model as SessionModel & { readonly header: NonNullable<SessionModel['header']> };
}

/** The session's problems as lines for stderr (none for a clean file). */
export function sessionProblemLines(session: CliSession): string[] {
	const blobs = session.state.spilled.length > 0 ? blobIdRefusal(session.path, session.model.header?.id ?? '') : undefined;
	return [...describeSessionProblems(session.path, session.model.diagnostics, session.state.diagnostics), ...(blobs === undefined ? [] : [blobs])];
}
