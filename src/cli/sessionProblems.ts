/**
 * A session's problems for the command line, one `file:line: severity: message` line each (the
 * form terminals and editors turn into links), in line order and capped so that a badly damaged
 * file does not bury the output, followed by what the user can do about them.
 */
import type { SessionDiagnostic } from '../engine/session';

export const MAX_PROBLEM_LINES = 20;

/**
 * @param reading problems of the file itself (the session model's diagnostics)
 * @param condense pi-condense entries on the branch that could not be used (the state's diagnostics)
 */
export function describeSessionProblems(
	path: string,
	reading: readonly SessionDiagnostic[],
	condense: readonly SessionDiagnostic[] = [],
	limit = MAX_PROBLEM_LINES,
): string[] {
	const all = [...reading, ...condense].sort((a, b) => a.line - b.line);
	if (all.length === 0) {
		return [];
	}
	const lines = all.slice(0, limit).map((d) => `${path}:${d.line}: ${d.severity}: ${d.message}`);
	if (all.length > limit) {
		lines.push(`${path}: … and ${all.length - limit} more problem(s)`);
	}
	if (reading.some((d) => d.severity === 'error')) {
		lines.push(`${path}: Pi skips the lines it cannot read, so what they held is missing from the session. Keep a copy, then repair or remove those lines before resuming the session in Pi. Pi Condense shows the rest and never writes to the file until it reads cleanly.`);
	} else if (reading.length > 0) {
		lines.push(`${path}: the session reads, with the oddities above. Pi Condense shows it but never writes to the file while they remain.`);
	}
	if (condense.length > 0) {
		lines.push(`${path}: pi-condense entries that cannot be used are skipped: what they recorded is not applied, so those parts of the context are shown as Pi has them.`);
	}
	return lines;
}
