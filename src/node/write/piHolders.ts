/**
 * Is a Pi process holding a session? Pi takes no lock on session files and keeps no file open
 * (one `appendFileSync` per entry), so this is a heuristic:
 * a process that looks like Pi and either runs in the session's working directory (Pi's cwd is
 * the header's `cwd`) or has the session file open. Linux reads `/proc`; macOS asks `ps` and
 * `lsof` (best effort); elsewhere nothing can be checked and the report says so.
 *
 * The check is a function value so that tests and hosts can replace it.
 */
import { realpath } from 'node:fs/promises';
import { resolve } from 'node:path';
import { findPiHoldersLinux } from './linuxPiHolders';
import { findPiHoldersMac } from './macPiHolders';
import type { PathForms, PiHolder, PiHolderCheck, PiHolderQuery } from './piHolderTypes';

/** The platform's check (own process excluded). */
export const detectPiHolders: PiHolderCheck = async (query) => {
	const forms = await pathForms(query);
	switch (process.platform) {
		case 'linux':
			return findPiHoldersLinux(forms);
		case 'darwin':
			return findPiHoldersMac(query.sessionPath, forms);
		default:
			return { checked: false, holders: [], note: `Could not check whether Pi is running on this session: no process check on ${process.platform}. Make sure Pi is closed on it.` };
	}
};

async function pathForms(query: PiHolderQuery): Promise<PathForms> {
	return {
		sessionFile: await bothForms(query.sessionPath),
		cwd: query.cwd === undefined ? new Set() : await bothForms(query.cwd),
	};
}

async function bothForms(path: string): Promise<Set<string>> {
	const forms = new Set([resolve(path)]);
	try {
		forms.add(await realpath(path));
	} catch {
		// A cwd that no longer exists can still be the cwd of a process started before it was removed.
	}
	return forms;
}

export function describeHolders(holders: readonly PiHolder[]): string {
	return holders.map((holder) => `pid ${holder.pid} (${shorten(holder.command)}; ${WHY[holder.why]})`).join(', ');
}

const WHY: Readonly<Record<PiHolder['why'], string>> = {
	'same-cwd': 'runs in the session\'s working directory',
	'file-open': 'has the session file open',
	bridge: 'has this session open, says its VS Code bridge',
};

function shorten(command: string): string {
	return command.length > 80 ? `${command.slice(0, 77)}...` : command;
}
