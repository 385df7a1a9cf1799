/**
 * Does a process look like the Pi coding agent? Decided from its argument vector (and on Linux
 * its `comm` name), without I/O.
 *
 * Pi's CLI sets `process.title = "pi"` at start-up, so on Linux a running Pi shows up as `pi` in
 * `/proc/<pid>/cmdline` and `/proc/<pid>/comm` whatever path it was started from. Before that line
 * runs (or on systems where the title is not visible) the package path in the arguments gives it away.
 */
import { lastPathSegment } from '../../engine/paths';

/** Substrings of a command line that only Pi's own packages produce. */
export const PI_COMMAND_MARKERS: readonly string[] = ['pi-coding-agent', '@mariozechner/pi', '@earendil-works/pi'];

/** Executable names Pi runs under (npm's `bin` entry is `pi`; Windows adds shims). */
const PI_EXECUTABLE = /^pi(\.exe|\.cmd|\.ps1|\.js|\.mjs)?$/i;

export function looksLikePi(argv: readonly string[], comm?: string): boolean {
	if (comm !== undefined && comm.trim() === 'pi') {
		return true;
	}
	const [argv0, argv1] = argv;
	if ((argv0 !== undefined && PI_EXECUTABLE.test(lastPathSegment(argv0))) || (argv1 !== undefined && PI_EXECUTABLE.test(lastPathSegment(argv1)))) {
		return true;
	}
	return argv.some((arg) => PI_COMMAND_MARKERS.some((marker) => arg.includes(marker)));
}
