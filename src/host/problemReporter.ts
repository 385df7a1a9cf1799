/**
 * Tells the user, once per distinct problem, what is wrong and where: Pi's settings.json unusable
 * (file and line, with a button that goes there), invalid `contextPrune` values, and lines of the
 * selected session that could not be read (file and line). Everything also goes to the log.
 */
import * as vscode from 'vscode';
import type { PruneSettings } from '../node/settings/readPruneSettings';
import { type ProblemMessage, sessionProblemMessage, settingsProblemMessages } from '../engine/views';
import { Disposable } from './dispose';
import { showWarning } from './ui/safeUi';
import type { SessionController } from './sessionController';

export class ProblemReporter extends Disposable {
	private readonly reported = new Set<string>();

	constructor(private readonly controller: SessionController, private readonly logger: vscode.LogOutputChannel) {
		super();
		this._register(controller.onDidChangeSettings((settings) => this.reportSettings(settings)));
		this._register(controller.onDidChangeSelectedSession(() => this.reportSession()));
	}

	/** The messages shown so far (tests read them). */
	get shown(): readonly string[] {
		return [...this.reported];
	}

	/** Reports the settings read at start (later reads arrive as change events). */
	reportSettings(settings: PruneSettings | undefined = this.controller.settings): void {
		for (const problem of settings ? settingsProblemMessages(settings) : []) {
			this.report(problem);
		}
	}

	private reportSession(): void {
		const session = this.controller.selectedOpenSession();
		const problem = session && sessionProblemMessage(session.path, session.model);
		if (problem) {
			this.report(problem);
		}
	}

	private report(problem: ProblemMessage): void {
		if (this.reported.has(problem.message)) {
			return;
		}
		this.reported.add(problem.message);
		this.logger.warn(problem.message);
		for (const detail of problem.details) {
			this.logger.warn(detail);
		}
		void showWarning(`Pi Condense: ${problem.message}`, 'Open File').then((choice) => {
			if (choice) {
				const position = new vscode.Position(Math.max(0, (problem.line ?? 1) - 1), 0);
				void vscode.window.showTextDocument(vscode.Uri.file(problem.file), { selection: new vscode.Range(position, position) });
			}
		});
	}
}
