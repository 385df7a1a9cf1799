/**
 * The controller as the context preview sees it (`SessionFeed`): the selected session's latest
 * snapshot and settings, recovery in context_tree_query's format, model prices (pi-ai loaded on
 * demand), settings writes, and the page's actions, done as the palette's commands do them through
 * typed calls (`FeedActions`), not through the command registry.
 */
import { homedir } from 'node:os';
import * as vscode from 'vscode';
import { releaseDefaults, setConfigKeys } from '../engine/config';
import { newerPiSessionText, releaseLine } from '../engine/release';
import type { SessionDiagnostic } from '../engine/session';
import { pageActions, pruneStateOf, statusLineText } from '../engine/views';
import type { ModelLookup } from '../node/llm/modelPricing';
import type { ModelFacts } from '../node/llm/modelPricing';
import { Disposable } from './dispose';
import type { ShownSession, SessionFeed } from './preview/sessionFeed';
import type { LastSentTracker } from './live/lastSentTracker';
import type { SessionController } from './sessionController';
import type { LastSentView } from '../shared/protocol';
import type { FlushMode } from '../engine/flush';
import type { StoredAccounts } from '../engine/costs';

/** What the page's buttons and links do, as the commands do it. */
export interface FeedActions {
	/** `/pruner now` or `compact` on a session (`PruneRequests.run`). */
	readonly prune: (mode: FlushMode, sessionPath: string) => Promise<unknown>;
	/** Opens the `pi-condense:` document of a ref's raw output. */
	readonly openRecovered: (target: { readonly sessionPath: string; readonly ref: string }) => Promise<unknown>;
	/** Opens the last request the live Pi holding the session sent. */
	readonly openLastSent: (sessionPath: string | undefined) => Promise<unknown>;
	readonly compareRequests: (sessionPath: string | undefined) => Promise<unknown>;
}

export class ControllerSessionFeed extends Disposable implements SessionFeed {
	private readonly _onDidChangeSession = this._register(new vscode.EventEmitter<void>());
	readonly onDidChangeSession = this._onDidChangeSession.event;

	readonly onDidChangeLastSent: vscode.Event<void> | undefined;

	constructor(private readonly controller: SessionController, private readonly lookUpModel: ModelLookup, private readonly actions: FeedActions, private readonly lastSentTracker?: LastSentTracker) {
		super();
		this.onDidChangeLastSent = lastSentTracker?.onDidChange;
		const fire = (): void => this._onDidChangeSession.fire();
		this._register(controller.onDidChangeSelection(fire));
		this._register(controller.onDidChangeSelectedSession(fire));
		this._register(controller.onDidChangeSettings(fire));
		// The header's status says "summarizing…" as the status bar does.
		this._register(controller.onDidChangeActivity(fire));
	}

	current(): ShownSession | undefined {
		const session = this.controller.selectedOpenSession();
		if (!session) {
			return undefined;
		}
		const controller = this.controller;
		const settings = controller.renderSettings;
		const { resolution } = settings;
		const state = pruneStateOf(settings);
		const prepared = controller.insight();
		return {
			path: session.path, title: controller.titleOf(session.path), model: session.model, consumed: session.consumed, config: settings.config, rules: settings.rules, blobs: session.blobs,
			followed: { line: withNewerPiNote(releaseLine(resolution, homedir()), session.model.diagnostics), installed: state !== 'not-installed' },
			// The views' own insight: what they already computed is shared, nothing is computed here.
			derived: session.insight(settings),
			estimateNow: () => controller.flushEstimateFor(session.path, 'now'),
			statusLine: statusLineText(settings.configured, prepared, controller.activity === 'summarizing', state !== 'not-installed'),
			actions: pageActions(state, vscode.workspace.isTrusted, prepared?.pending.length ?? 0),
			costs: session.costs,
		};
	}

	async recover(refs: readonly string[]): Promise<string> {
		const path = this.controller.selected;
		if (path === undefined) {
			throw new Error('No Pi session is selected.');
		}
		return this.controller.recover(path, refs);
	}

	async openRecovered(ref: string): Promise<void> {
		const path = this.controller.selected;
		if (path !== undefined) {
			await this.actions.openRecovered({ sessionPath: path, ref });
		}
	}

	async summarizeNow(): Promise<void> {
		const path = this.controller.selected;
		if (path !== undefined) {
			await this.actions.prune('now', path);
		}
	}

	async compact(): Promise<void> {
		const path = this.controller.selected;
		if (path !== undefined) {
			await this.actions.prune('compact', path);
		}
	}

	lastSent(): LastSentView | undefined {
		return this.lastSentTracker?.view;
	}

	async openLastSent(): Promise<void> {
		await this.actions.openLastSent(this.controller.selected);
	}

	async compareRequests(): Promise<void> {
		await this.actions.compareRequests(this.controller.selected);
	}

	async modelPricing(provider: string, modelId: string): Promise<ModelFacts | undefined> {
		const agentDir = this.controller.discovery.locations?.agentDir;
		return agentDir === undefined ? undefined : this.lookUpModel(agentDir, provider, modelId);
	}

	keepAccounts(path: string, consumed: number, basis: string, accounts: StoredAccounts): void {
		void this.controller.keepAccounts(path, consumed, basis, accounts);
	}

	async applyPruneSettings(changes: ReadonlyArray<{ readonly key: string; readonly value: unknown }>): Promise<void> {
		await this.controller.updatePruneSettings((raw) => setConfigKeys(raw, changes, releaseDefaults(this.controller.rules)));
	}
}

/** The preview header's line, with a note when a Pi newer than the one we know wrote the session. */
function withNewerPiNote(line: string, diagnostics: readonly SessionDiagnostic[]): string {
	const newer = newerPiSessionText(diagnostics);
	return newer ? `${line} · ${newer}` : line;
}
