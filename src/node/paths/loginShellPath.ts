/**
 * The PATH a terminal would have: the user's login shell asked once for its `$PATH`, as VS Code itself
 * resolves a shell environment when started from a desktop. The shell is `$SHELL` of this process's own
 * environment (never a setting, a session or a workspace: nothing they say may change what runs), run
 * with `-l -c` and a fixed command, under a deadline and the caller's signal. Its output is read after a
 * marker (a profile may print a banner first), and only absolute folders are kept (a relative entry
 * would name a folder relative to wherever VS Code started). Callers run it only in a trusted workspace.
 */
import { execFile } from 'node:child_process';
import { isAbsolute } from 'node:path';
import type { LoginShellState } from '../../engine/release';
import type { Environment } from './agentDir';

/** What the login shell said, or why it was not asked or did not answer. */
export type LoginShellPath = Exclude<LoginShellState, { readonly kind: 'pending' }>;

/** A login shell that reads slow profiles gets this long. */
export const LOGIN_SHELL_DEADLINE_MS = 10_000;
const MAX_OUTPUT_BYTES = 256 * 1024;
/** Printed before the PATH, so that what a profile prints first is told apart from it. */
const MARKER = '__PI_CONDENSE_LOGIN_PATH__';

export interface LoginShellInputs {
	/** This process's environment: `SHELL` names the shell, and the shell starts with it. */
	readonly env: Environment;
	readonly signal: AbortSignal;
	readonly deadlineMs?: number;
	readonly platform?: NodeJS.Platform;
}

export async function readLoginShellPath(inputs: LoginShellInputs): Promise<LoginShellPath> {
	if ((inputs.platform ?? process.platform) === 'win32') {
		return { kind: 'unavailable', reason: 'Windows has no login shell: the PATH is the system\'s' };
	}
	const shell = inputs.env['SHELL'];
	if (shell === undefined || shell === '' || !isAbsolute(shell)) {
		return { kind: 'unavailable', reason: 'SHELL is not set to an absolute path in VS Code\'s environment' };
	}
	const deadlineMs = inputs.deadlineMs ?? LOGIN_SHELL_DEADLINE_MS;
	const output = await new Promise<{ stdout: string } | { failed: string }>((resolve) => {
		execFile(shell, ['-l', '-c', `printf '${MARKER}%s' "$PATH"`], {
			env: { ...inputs.env }, signal: inputs.signal, timeout: deadlineMs, killSignal: 'SIGKILL',
			maxBuffer: MAX_OUTPUT_BYTES, windowsHide: true, encoding: 'utf8',
		}, (error, stdout) => {
			if (error === null) {
				resolve({ stdout });
			} else if (inputs.signal.aborted) {
				resolve({ failed: 'stopped' });
			} else if (error.killed === true || error.signal === 'SIGKILL') {
				resolve({ failed: `did not answer within ${deadlineMs / 1000} s` });
			} else {
				resolve({ failed: typeof error.code === 'number' ? `failed with exit code ${error.code}` : error.message });
			}
		}).stdin?.end();
	});
	if ('failed' in output) {
		return { kind: 'unavailable', reason: `${shell} -l ${output.failed}` };
	}
	const folders = parseLoginShellPath(output.stdout);
	return folders === undefined
		? { kind: 'unavailable', reason: `${shell} -l printed no PATH` }
		: { kind: 'read', shell, folders };
}

/** The absolute folders of the PATH printed after the last marker; undefined when no marker was printed. */
export function parseLoginShellPath(stdout: string): string[] | undefined {
	const at = stdout.lastIndexOf(MARKER);
	if (at < 0) {
		return undefined;
	}
	// Only the PATH's own line: anything a logout script prints after it is not part of it.
	const [path = ''] = stdout.slice(at + MARKER.length).split(/\r?\n/, 1);
	return [...new Set(path.split(':').filter((folder) => folder !== '' && isAbsolute(folder)))];
}
