/**
 * Pi holder check for macOS, best effort: `ps` lists processes that look like Pi, `lsof` gives
 * their working directories and tells who has the session file open. Arguments are split on
 * spaces (`ps` prints them joined), so a Pi installed under a path with spaces is matched only by
 * its title `pi`. Either tool failing leaves a note instead of a silent "no Pi".
 */
import { execFile } from 'node:child_process';
import type { PathForms, PiHolder, PiHolderReport } from './piHolderTypes';
import { looksLikePi } from './piProcessMatch';
import { errorMessage } from '../../base/errorMessage';

const TOOL_TIMEOUT_MS = 3000;

export async function findPiHoldersMac(sessionPath: string, forms: PathForms): Promise<PiHolderReport> {
	let listing: string;
	try {
		listing = await run('ps', ['-axww', '-o', 'pid=,args=']);
	} catch (error) {
		return { checked: false, holders: [], note: `Could not check whether Pi is running on this session (ps failed: ${errorMessage(error)}).` };
	}
	const candidates = parsePsListing(listing).filter((process_) => process_.pid !== process.pid && looksLikePi(process_.args.split(/\s+/)));
	if (candidates.length === 0) {
		return { checked: true, holders: [] };
	}
	const pids = candidates.map((candidate) => candidate.pid);
	const notes: string[] = [];
	const cwds = await run('lsof', ['-a', '-d', 'cwd', '-Fn', '-p', pids.join(',')]).then(parseLsofNames, (error: Error) => {
		notes.push(`lsof could not read the working directories of Pi-like processes ${pids.join(', ')} (${error.message}).`);
		return new Map<number, string[]>();
	});
	// lsof exits 1 when nobody has the file open: that is an answer, not a failure.
	const openers = await run('lsof', ['-Fn', '--', sessionPath]).then(parseLsofNames, () => new Map<number, string[]>());
	const holders: PiHolder[] = [];
	for (const { pid, args } of candidates) {
		if ((cwds.get(pid) ?? []).some((cwd) => forms.cwd.has(cwd))) {
			holders.push({ pid, command: args, why: 'same-cwd' });
		} else if (openers.has(pid)) {
			holders.push({ pid, command: args, why: 'file-open' });
		}
	}
	return notes.length === 0 ? { checked: true, holders } : { checked: true, holders, note: notes.join(' ') };
}

/** Parses `ps -o pid=,args=` output. */
export function parsePsListing(text: string): { pid: number; args: string }[] {
	const processes: { pid: number; args: string }[] = [];
	for (const line of text.split('\n')) {
		const match = /^\s*(\d+)\s+(.*)$/.exec(line);
		if (match !== null) {
			processes.push({ pid: Number(match[1]), args: (match[2] as string).trim() });
		}
	}
	return processes;
}

/** Parses `lsof -F` output (`p<pid>` then `n<name>` lines) into names per pid. */
export function parseLsofNames(text: string): Map<number, string[]> {
	const names = new Map<number, string[]>();
	let pid: number | undefined;
	for (const line of text.split('\n')) {
		if (line.startsWith('p')) {
			pid = Number(line.slice(1));
			names.set(pid, names.get(pid) ?? []);
		} else if (line.startsWith('n') && pid !== undefined) {
			names.get(pid)?.push(line.slice(1));
		}
	}
	return names;
}

function run(command: string, args: readonly string[]): Promise<string> {
	return new Promise((resolvePromise, reject) => {
		execFile(command, args, { timeout: TOOL_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 }, (error, stdout) => {
			if (error !== null) {
				reject(new Error(error.message));
			} else {
				resolvePromise(stdout);
			}
		});
	});
}
