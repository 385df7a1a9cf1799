/**
 * Keeps Chromium off the first CPU with `taskset` (util-linux), for the bench's host-block figures:
 * on a 2-core machine Chromium loading a page can hold both cores for 100 ms, and the bench process
 * (playing the extension host) then waits for a core, which its event-loop watch counts as a block
 * though none of our code ran. With Chromium on the other CPUs, a block is the host's own work, as on
 * any machine with a core to spare. Linux only; elsewhere nothing is pinned.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';

/** Every CPU but the first (taskset's list syntax); undefined when that cannot be done here. */
export function cpusBesideTheFirst(): string | undefined {
	const cpus = availableParallelism();
	if (process.platform !== 'linux' || cpus < 2 || !hasTaskset()) {
		return undefined;
	}
	return cpus === 2 ? '1' : `1-${cpus - 1}`;
}

const wrappers = new Map<string, string>();

/** An executable that runs `executable` with its arguments on `cpus` (its child processes inherit them). */
export function pinnedExecutable(executable: string, cpus: string): string {
	const key = `${cpus}\0${executable}`;
	let script = wrappers.get(key);
	if (script === undefined) {
		script = join(mkdtempSync(join(tmpdir(), 'pi-condense-pinned-')), 'pinned.sh');
		writeFileSync(script, `#!/bin/sh\nexec taskset -c ${cpus} '${executable.replace(/'/g, "'\\''")}' "$@"\n`);
		chmodSync(script, 0o755);
		wrappers.set(key, script);
	}
	return script;
}

function hasTaskset(): boolean {
	try {
		execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
		return true;
	} catch {
		return false;
	}
}
