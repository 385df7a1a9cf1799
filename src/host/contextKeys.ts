/**
 * The context keys the palette's and the views' `when` clauses read, so that only the commands that
 * mean something now are offered (On or Off, never both; Install only without pi-condense; Clear
 * Filter only with a filter; the session commands only with a session selected; Summarize Now only
 * with batches pending): `piCondense.sessionSelected`, `.installed`, `.pruningEnabled`,
 * `.hasPending` and `.hasSessions`. Live sessions: `.liveSession` (a running Pi's bridge holds the
 * selected session: Open the Last Request), `.bridgeChecked`, `.bridgeInstalled` (Disconnect) and
 * `.bridgeReady` (the bridge is Pi's last package: no Connect), `.canCompareRequests` (two requests of the
 * selected session kept: Compare with Previous Request). (`.canUndoPrune` is set by Undo Last
 * Prune, `.sessionsFiltered` by the sessions view, `.discoveryDone` and `.agentDirSource` by the listing.)
 */
import * as vscode from 'vscode';
import { Disposable } from './dispose';
import type { BridgeInstallState } from './live/bridgeInstallState';
import type { LiveMarks } from './live/liveMarks';
import type { RequestHistory } from '../node/bridge/requestHistory';
import type { SessionController } from './sessionController';

export class ContextKeys extends Disposable {
	private readonly values = new Map<string, boolean>();

	constructor(
		private readonly controller: SessionController, private readonly live?: LiveMarks, private readonly bridge?: BridgeInstallState,
		private readonly requests?: Pick<RequestHistory, 'requests' | 'onDidChange'>,
	) {
		super();
		const update = (): void => this.update();
		this._register(controller.onDidChangeSelection(update));
		this._register(controller.onDidChangeSelectedSession(update));
		this._register(controller.onDidChangeSettings(update));
		this._register(controller.onDidChangeSessions((paths) => paths === undefined && update()));
		if (live) {
			this._register(live.onDidChange(update));
		}
		if (bridge) {
			this._register(bridge.onDidChange(update));
		}
		if (requests) {
			this._register(requests.onDidChange(update));
		}
		update();
	}

	/** The value last set for `key` (the integration tests read it: VS Code has no getter). */
	value(key: string): boolean | undefined {
		return this.values.get(key);
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
		this.set('piCondense.liveSession', this.live?.forSession(controller.selected) !== undefined);
		this.set('piCondense.canCompareRequests', (this.requests?.requests(controller.selected).length ?? 0) >= 2);
		const bridge = this.bridge?.facts;
		this.set('piCondense.bridgeChecked', bridge !== undefined);
		this.set('piCondense.bridgeInstalled', bridge?.installed === true);
		this.set('piCondense.bridgeReady', bridge?.ready === true);
	}

	/** Only changes reach VS Code (each `setContext` is a message to the window). */
	private set(key: string, value: boolean): void {
		if (this.values.get(key) !== value) {
			this.values.set(key, value);
			void vscode.commands.executeCommand('setContext', key, value);
		}
	}
}
