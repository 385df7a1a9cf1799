/**
 * The opt-in auto-flush (`piCondense.autoFlush.onIdle`): after the selected session changes and then
 * stays quiet, flushes it when pi-condense would have (the agent's final reply in `agent-message`
 * mode, or a budget trigger). Refusals (Pi still holds the session) are logged, not shown; the next
 * change of the session tries again.
 */
import * as vscode from 'vscode';
import { DEFAULT_QUIET_MS } from '../../node/write';
import type { ModelLookup } from '../../node/llm/modelPricing';
import { autoFlushReason, usesBudgetTriggers } from '../../node/store/autoFlushCheck';
import { restrictedModeRefusal } from '../../engine/views';
import { Disposable } from '../dispose';
import type { ExtensionConfig } from '../extensionConfig';
import type { SessionController } from '../sessionController';
import type { FlushRunner } from './flushRunner';
import { errorMessage } from '../../base/errorMessage';
import type { Debounce, WorkScope } from '../../work';

export interface AutoFlusherOptions {
	/** Its own scope: the quiet period's timer and the check run under it. */
	readonly work: WorkScope;
	readonly controller: SessionController;
	readonly runner: FlushRunner;
	readonly logger: vscode.LogOutputChannel;
	/** Context windows come from here (a worker that loads pi-ai). */
	readonly lookUpModel: ModelLookup;
	readonly extensionConfig: () => ExtensionConfig;
	/** Quiet period before a check (default: the writer's own, plus a margin). */
	readonly quietMs?: number;
}

export class AutoFlusher extends Disposable {
	/** The check, once the selected session has been quiet for the quiet period. */
	private readonly checks: Debounce;
	private readonly windows = new Map<string, number | undefined>();
	private readonly quietMs: number;
	private toldRestricted = false;

	constructor(private readonly options: AutoFlusherOptions) {
		super();
		this.quietMs = options.quietMs ?? DEFAULT_QUIET_MS + 500;
		this.checks = options.work.debounce(this.quietMs, () => this.check());
		this._register(options.controller.onDidChangeSelectedSession(() => this.schedule()));
		this._register({ dispose: () => this.checks.cancel() });
	}

	/** Checks the selected session once it has been quiet for the quiet period. */
	schedule(): void {
		if (this.options.extensionConfig().autoFlushOnIdle) {
			this.checks.schedule();
		} else {
			this.checks.cancel();
		}
	}

	private async check(): Promise<void> {
		const { controller, runner, logger } = this.options;
		const path = controller.selected;
		const insight = controller.insight();
		if (!path || !insight || runner.isRunning || !this.options.extensionConfig().autoFlushOnIdle) {
			return;
		}
		const restricted = restrictedModeRefusal('autoFlush', vscode.workspace.isTrusted);
		if (restricted !== undefined) {
			if (!this.toldRestricted) {
				this.toldRestricted = true;
				logger.info(restricted);
			}
			return;
		}
		try {
			const contextWindow = usesBudgetTriggers(insight.config) ? await this.contextWindow(insight.context.model) : undefined;
			const reason = await autoFlushReason({ path, insight, nowMs: Date.now(), quietMs: this.quietMs - 500, contextWindow });
			if (reason) {
				logger.info(`auto-flush (${reason}) of ${path}`);
				await runner.runQuietly(path);
			}
		} catch (error) {
			logger.warn(`auto-flush of ${path}: ${errorMessage(error)}`);
		}
	}

	/** The context window of the session's model (loads pi-ai: only when a budget trigger is set). */
	private async contextWindow(model: { provider: string; modelId: string } | null): Promise<number | undefined> {
		const agentDir = this.options.controller.discovery.locations?.agentDir;
		if (!model || agentDir === undefined) {
			return undefined;
		}
		const key = `${model.provider}/${model.modelId}`;
		if (!this.windows.has(key)) {
			this.windows.set(key, (await this.options.lookUpModel(agentDir, model.provider, model.modelId))?.contextWindow);
		}
		return this.windows.get(key);
	}
}
