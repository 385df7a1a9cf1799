/**
 * The warnings the extension shows about Pi's settings.json and about a session file, each naming
 * the file and, where known, the line. Pure.
 */
import { describeConfigProblem, type ConfigProblem } from '../config/resolve';
import type { SessionModel } from '../session/model';
import { describePruneSettingsProblem, type PruneSettingsFileState } from '../config/settingsProblems';

export interface ProblemMessage {
	readonly message: string;
	readonly file: string;
	readonly line: number | undefined;
	/** Extra lines for the log. */
	readonly details: readonly string[];
}

/** What the messages need of the settings read (`PruneSettings` in src/node/settings has this shape). */
export interface SettingsProblems {
	readonly path: string;
	readonly fileState: PruneSettingsFileState;
	readonly problems: readonly ConfigProblem[];
}

export function settingsProblemMessages(settings: SettingsProblems): ProblemMessage[] {
	const state = settings.fileState;
	const messages: ProblemMessage[] = [];
	const fileProblem = describePruneSettingsProblem(settings.path, state);
	if (fileProblem) {
		messages.push({ message: fileProblem, file: settings.path, line: state.kind === 'invalid-json' ? state.line : undefined, details: [] });
	}
	const problems = settings.problems.map(describeConfigProblem);
	if (problems.length > 0) {
		const summary = problems.length === 1
			? problems[0] ?? ''
			: `${problems.length} contextPrune values are invalid and their defaults are used (all of them in the log); the first: ${problems[0] ?? ''}`;
		messages.push({ message: `${summary} (in ${settings.path})`, file: settings.path, line: undefined, details: problems });
	}
	return messages;
}

/** The first unreadable line of a session, with a count of the others; undefined when it reads cleanly. */
export function sessionProblemMessage(path: string, model: SessionModel): ProblemMessage | undefined {
	const first = model.diagnostics.find((diagnostic) => diagnostic.severity === 'error');
	if (!first) {
		return undefined;
	}
	const others = model.diagnostics.length - 1;
	const more = others > 0 ? ` (and ${others} more problem${others === 1 ? '' : 's'}, listed under Problems in Pruned Calls)` : '';
	return {
		message: `${path}:${first.line}: ${first.message}${more}`,
		file: path,
		line: first.line,
		details: loggedProblems(path, model.diagnostics),
	};
}

/** Problems written to the log at most: a damaged file may have one per line, and all are in Pruned Calls. */
export const MAX_LOGGED_PROBLEMS = 200;

function loggedProblems(path: string, diagnostics: SessionModel['diagnostics']): string[] {
	const lines = diagnostics.slice(0, MAX_LOGGED_PROBLEMS).map((diagnostic) => `${path}:${diagnostic.line}: ${diagnostic.message}`);
	const more = diagnostics.length - lines.length;
	return more > 0 ? [...lines, `… and ${more} more (all of them under Problems in Pruned Calls)`] : lines;
}
