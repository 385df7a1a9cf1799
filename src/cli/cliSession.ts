/**
 * A session file as the command line reads it (at once: the CLI is a process of its own): our session
 * model, the blob reader of its spill folder, and its `SessionInsight` under the command's configuration
 * and release: the same derived values the extension's views read (branch, Pi's context, pi-condense's
 * state, what is pending, the footer…), each computed when a command first asks for it.
 * (`src/node/store/openSession.ts` is the extension's: a session kept open and advanced.)
 */
import type { ContextPruneConfig } from '../engine/config';
import type { BlobReader } from '../engine/ports';
import type { ReleaseRules } from '../engine/release';
import type { SessionModel } from '../engine/session';
import { SessionInsight } from '../engine/views';
import { blobIdRefusal } from '../node/condense/blobFolder';
import { sessionBlobReader } from '../node/condense/sessionBlobReader';
import { readSessionModel } from '../node/store/readSessionModel';
import { describeSessionProblems } from './sessionProblems';
import { runSteps } from '../engine/steps';
import { errorMessage } from '../base/errorMessage';
import type { SliceRunner } from '../work';

export class SessionFileError extends Error {}

export interface CliSession {
	readonly path: string;
	readonly model: SessionModel;
	/** What the commands read of the session, as `config` and `rules` derive it. */
	readonly insight: SessionInsight;
	readonly blobs: BlobReader | undefined;
}

/**
 * Reads a session, to be derived as `rules` reads it with `config`. The file is read in pieces, as
 * the extension reads it, never as one string: a 100 MB session would otherwise hold its text (twice,
 * as UTF-16 where it is not Latin-1) beside its parsed entries.
 */
export async function readCliSession(work: SliceRunner, path: string, config: ContextPruneConfig, rules: ReleaseRules): Promise<CliSession> {
	const model = await readCliModel(work, path);
	return { path, model, insight: new SessionInsight(model, config, rules), blobs: sessionBlobReader(path, model.header.id) };
}

/** A session file's model, read in pieces; a file that cannot be read or has no header is a `SessionFileError`. */
export async function readCliModel(work: SliceRunner, path: string): Promise<SessionModel & { readonly header: NonNullable<SessionModel['header']> }> {
	let model: SessionModel;
	try {
		model = (await readSessionModel(work, path)).model;
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

/** The session's problems as lines for stderr (none for a clean file); pi-condense's state is read whether or not pruning is on. */
export function sessionProblemLines(session: CliSession): string[] {
	const state = runSteps(session.insight.stateSteps());
	const blobs = state.spilled.length > 0 ? blobIdRefusal(session.path, session.model.header?.id ?? '') : undefined;
	return [...describeSessionProblems(session.path, session.model.diagnostics, state.diagnostics), ...(blobs === undefined ? [] : [blobs])];
}
