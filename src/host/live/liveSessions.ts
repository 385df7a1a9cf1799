/**
 * The running Pis VS Code sees through their bridges, for the views: which session each holds, its
 * state, and its last request. Discovery reads the private runtime folders and connects; it writes
 * nothing but the removal of a dead Pi's stale record, and that only in a trusted workspace.
 * Connecting to a bridge starts no process.
 */
import * as vscode from 'vscode';
import { bridgeAwareHolders } from '../../node/bridge/bridgeHolders';
import { LiveBridges, type LivePi } from '../../node/bridge/liveBridges';
import type { PiHolderCheck } from '../../node/write';
import { Disposable } from '../dispose';
import type { WorkScope } from '../../work';

export class LiveSessions extends Disposable {
	private readonly _onDidChange = this._register(new vscode.EventEmitter<void>());
	private readonly _onDidSend = this._register(new vscode.EventEmitter<LivePi>());
	/** A Pi appeared, went, changed session or state. */
	readonly onDidChange = this._onDidChange.event;
	/** A live Pi made a model request. */
	readonly onDidSend = this._onDidSend.event;
	readonly bridges: LiveBridges;
	/** "Does Pi hold this session?": the bridges first, then the process check. */
	readonly holders: PiHolderCheck;

	/** `work` is its own scope: closing it stops following the bridges and closes their connections. */
	constructor(work: WorkScope, logger: vscode.LogOutputChannel, folders?: () => readonly string[]) {
		super();
		this.bridges = new LiveBridges({
			work,
			...(folders ? { folders } : {}),
			cleanStale: () => vscode.workspace.isTrusted,
			log: { info: (message) => logger.info(message), warn: (message) => logger.warn(message), debug: (message) => logger.debug(message) },
		});
		const changes = this.bridges.onDidChange(() => this._onDidChange.fire());
		const sends = this.bridges.onDidSend((pi) => this._onDidSend.fire(pi));
		this._register({ dispose: () => {
			changes.dispose();
			sends.dispose();
		} });
		this.holders = bridgeAwareHolders(this.bridges);
	}

	start(): void {
		this.bridges.start();
	}

	/** The live Pi holding this session, if one's bridge says so. */
	forSession(path: string | undefined): LivePi | undefined {
		return path === undefined ? undefined : this.bridges.forSession(path);
	}

	get pis(): readonly LivePi[] {
		return this.bridges.pis;
	}
}
