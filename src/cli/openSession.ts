/**
 * Reads a session file for the command line: our session model, the active branch, Pi's context
 * and the blob reader of its spill folder.
 */
import { readFile } from 'node:fs/promises';
import type { BlobReader } from '../engine/ports';
import { buildSessionContext, getBranch, parseSession } from '../engine/session';
import type { SessionModel } from '../engine/session/model';
import type { AgentMessage, SessionEntry } from '../engine/session/types';
import { sessionBlobReader } from '../node/condense/sessionBlobReader';

export class SessionFileError extends Error {}

export interface OpenedSession {
	readonly model: SessionModel;
	readonly branch: readonly SessionEntry[];
	readonly messages: readonly AgentMessage[];
	readonly blobs: BlobReader | undefined;
}

export async function openSession(path: string): Promise<OpenedSession> {
	let text: string;
	try {
		text = await readFile(path, 'utf8');
	} catch (error) {
		throw new SessionFileError(`cannot read ${path}: ${(error as Error).message}`);
	}
	const model = parseSession(text);
	if (model.header === undefined) {
		throw new SessionFileError(`${path} is not a Pi session file (no session header on its first line)`);
	}
	return {
		model,
		branch: getBranch(model),
		messages: buildSessionContext(model).messages,
		blobs: sessionBlobReader(path, model.header.id),
	};
}
