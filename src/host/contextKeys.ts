/**
 * The context keys the palette's and the views' `when` clauses read, so that only the commands that
 * mean something now are offered (On or Off, never both; Install only without pi-condense; Clear
 * Filter only with a filter; the session commands only with a session selected; Summarize Now only
 * with batches pending): `piCondense.sessionSelected`, `.installed`, `.pruningEnabled`,
 * `.hasPending` and `.hasSessions`. (`.canUndoPrune` is set by Undo Last Prune, `.sessionsFiltered`
 * by the sessions view, `.discoveryDone` and `.agentDirSource` by the listing.)
 */
import * as vscode from 'vscode';
import { Disposable } from './dispose';
import type { SessionController } from './sessionController';

export class ContextKeys extends Disposable {
	private readonly values = new Map<string, boolean>();

	constructor(private readonly controller: SessionController) {
		super();
		const update = (): void => this.update();
		this._register(controller.onDidChangeSelection(update));
		this._register(controller.onDidChangeSelectedSession(update));
		this._register(controller.onDidChangeSettings(update));
		this._register(controller.onDidChangeSessions((paths) => paths === undefined && update()));
		update();
	}

	private update(): void {
		const controller = this.controller;
		const known = controller.stateKnown;
		const state = controller.pruneState;
		this.set('piCondense.sessionSelected', controller.selected !== undefined);
		// Unknown for a moment after activation: neither On nor Off, nor Install, is offered until it is known.
		this.set('piCondense.stateKnown', known);
		this.set('piCondense.installed', known && state !== 'not-installed');
		this.set('piCondense.pruningEnabled', known && controller.config.enabled);
		this.set('piCondense.hasPending', (controller.insight()?.pending.length ?? 0) > 0);
		this.set('piCondense.hasSessions', controller.sessionPaths().length > 0);
	}

	/** Only changes reach VS Code (each `setContext` is a message to the window). */
	private set(key: string, value: boolean): void {
		if (this.values.get(key) !== value) {
			this.values.set(key, value);
			void vscode.commands.executeCommand('setContext', key, value);
		}
	}
}
