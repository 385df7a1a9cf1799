/**
 * Pi holder check for Linux: scans `/proc/<pid>/` for processes that look like Pi (cmdline, comm),
 * then compares their `cwd` link and open file descriptors with the session.
 */
import { readdir, readFile, readlink } from 'node:fs/promises';
import type { PathForms, PiHolder, PiHolderReport } from './piHolderTypes';
import { looksLikePi } from './piProcessMatch';
import { errorMessage } from '../../base/errorMessage';

export async function findPiHoldersLinux(forms: PathForms, procRoot = '/proc'): Promise<PiHolderReport> {
	let names: string[];
	try {
		names = await readdir(procRoot);
	} catch (error) {
		return { checked: false, holders: [], note: `Could not check whether Pi is running on this session (${procRoot} unreadable: ${errorMessage(error)}).` };
	}
	const pids = names.filter((name) => /^\d+$/.test(name)).map(Number).filter((pid) => pid !== process.pid);
	const holders: PiHolder[] = [];
	const uninspectable: number[] = [];
	await Promise.all(pids.map(async (pid) => {
		const dir = `${procRoot}/${pid}`;
		const argv = await readArgv(`${dir}/cmdline`);
		if (argv === undefined || !looksLikePi(argv, await readText(`${dir}/comm`))) {
			return;
		}
		const command = argv.join(' ');
		const cwd = await readLink(`${dir}/cwd`);
		if (cwd === undefined) {
			uninspectable.push(pid);
		} else if (forms.cwd.has(stripDeleted(cwd))) {
			holders.push({ pid, command, why: 'same-cwd' });
			return;
		}
		if (await hasOpen(`${dir}/fd`, forms.sessionFile)) {
			holders.push({ pid, command, why: 'file-open' });
		}
	}));
	holders.sort((a, b) => a.pid - b.pid);
	const note = uninspectable.length === 0 ? undefined
		: `Pi-like processes whose working directory could not be read (other users?): pid ${uninspectable.sort((a, b) => a - b).join(', ')}.`;
	return note === undefined ? { checked: true, holders } : { checked: true, holders, note };
}

async function readArgv(path: string): Promise<string[] | undefined> {
	const raw = await readText(path);
	if (raw === undefined) {
		return undefined;
	}
	const argv = raw.split('\0').filter((arg) => arg !== '');
	// Pi's process.title overwrites argv in place and pads with spaces on some kernels.
	return argv.length === 0 ? undefined : argv.map((arg) => arg.trimEnd());
}

async function hasOpen(fdDir: string, targets: ReadonlySet<string>): Promise<boolean> {
	let fds: string[];
	try {
		fds = await readdir(fdDir);
	} catch {
		return false;
	}
	for (const fd of fds) {
		const target = await readLink(`${fdDir}/${fd}`);
		if (target !== undefined && targets.has(stripDeleted(target))) {
			return true;
		}
	}
	return false;
}

function stripDeleted(path: string): string {
	return path.endsWith(' (deleted)') ? path.slice(0, -' (deleted)'.length) : path;
}

async function readText(path: string): Promise<string | undefined> {
	try {
		return await readFile(path, 'utf8');
	} catch {
		return undefined;
	}
}

async function readLink(path: string): Promise<string | undefined> {
	try {
		return await readlink(path);
	} catch {
		return undefined;
	}
}
