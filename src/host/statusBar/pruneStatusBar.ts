/**
 * The status-bar item: pi-condense's status text for the selected session, a tooltip with the
 * session, models, pending batches and the summarizer's cost so far, and a click that opens the
 * context preview. Hidden when Pi's `showPruneStatusLine` or `piCondense.statusBar.enabled` is off.
 */
import * as vscode from 'vscode';
import { charsToTokens, formatCompactCount, formatCost } from '../../engine/condense';
import { homedir } from 'node:os';
import { modelLabel } from '../../engine/pruner/prunerTexts';
import { newerPiSessionText, releaseLine } from '../../engine/release';
import { statusLineText } from '../../engine/views/statusLine';
import { CommandId } from '../commands/commandIds';
import { Disposable } from '../dispose';
import type { ExtensionSettings } from '../extensionConfig';
import type { SessionController } from '../sessionController';
import { escapeMarkdown } from '../tree/sessionsTreeProvider';

export interface PruneStatusBarOptions {
	readonly controller: SessionController;
	readonly settings: ExtensionSettings;
}

export class PruneStatusBar extends Disposable {
	readonly item: vscode.StatusBarItem;
	private readonly controller: SessionController;
	private shown = false;

	constructor(private readonly options: PruneStatusBarOptions) {
		super();
		this.controller = options.controller;
		this.item = this._register(vscode.window.createStatusBarItem('piCondense.status', vscode.StatusBarAlignment.Right, 100));
		this.item.name = 'Pi Condense: prune status';
		this.item.command = CommandId.OpenPreview;
		const update = (): void => this.update();
		this._register(this.controller.onDidChangeSelection(update));
		this._register(this.controller.onDidChangeSelectedSession(update));
		this._register(this.controller.onDidChangeSettings(update));
		this._register(this.controller.onDidChangeActivity(update));
		// The session's title in the tooltip arrives with its background summary.
		this._register(this.controller.onDidChangeSessions((paths) => {
			const selected = this.controller.selected;
			if (selected !== undefined && (!paths || paths.includes(selected))) {
				update();
			}
		}));
		this._register(options.settings.onDidChange(update));
		this.update();
	}

	update(): void {
		const config = this.controller.config;
		if (!config.showPruneStatusLine || !this.options.settings.current.statusBarEnabled) {
			this.item.hide();
			this.shown = false;
			return;
		}
		const insight = this.controller.insight();
		const installed = this.controller.releaseResolution.kind === 'followed';
		this.item.text = statusLineText(config, insight, this.controller.activity === 'summarizing', installed);
		this.item.backgroundColor = installed ? undefined : new vscode.ThemeColor('statusBarItem.warningBackground');
		this.item.tooltip = this.tooltip();
		this.item.show();
		this.shown = true;
	}

	/** Whether the item is shown (VS Code offers no getter). */
	get visible(): boolean {
		return this.shown;
	}

	private tooltip(): vscode.MarkdownString {
		const controller = this.controller;
		const config = controller.config;
		const insight = controller.insight();
		const path = controller.selected;
		const tooltip = new vscode.MarkdownString('', true);
		tooltip.isTrusted = { enabledCommands: [CommandId.OpenPreview, CommandId.ShowTree, CommandId.Settings, CommandId.FlushNow, CommandId.InstallPiCondense] };
		const resolution = controller.releaseResolution;
		tooltip.appendMarkdown(`**Pi Condense** · pruning ${config.enabled ? 'on' : 'off'}\n\n`);
		tooltip.appendMarkdown(`$(package) ${escapeMarkdown(releaseLine(resolution, homedir()))}`);
		tooltip.appendMarkdown(resolution.warnings.length > 0 ? ` · $(warning) ${resolution.warnings.length} warning${resolution.warnings.length === 1 ? '' : 's'} (Show Status)\n\n` : '\n\n');
		if (resolution.kind === 'not-installed') {
			tooltip.appendMarkdown(`Pi sends the whole context: nothing is pruned. [Install pi-condense in Pi…](command:${CommandId.InstallPiCondense})\n\n`);
		}
		if (!path) {
			tooltip.appendMarkdown('No session selected.\n\n');
		} else {
			tooltip.appendMarkdown(`$(comment-discussion) ${escapeMarkdown(controller.titleOf(path))}\n\n`);
		}
		const newer = insight && newerPiSessionText(insight.model.diagnostics);
		if (newer) {
			tooltip.appendMarkdown(`$(warning) ${escapeMarkdown(newer)}\n\n`);
		}
		const model = insight?.context.model;
		tooltip.appendMarkdown(`Session model: ${model ? escapeMarkdown(`${model.provider}/${model.modelId}`) : 'unknown'} · summarizer: ${escapeMarkdown(modelLabel(config.summarizerModel))}\n\n`);
		if (insight) {
			const reclaim = insight.reclaim;
			if (reclaim) {
				tooltip.appendMarkdown(`Context: ${formatCompactCount(charsToTokens(reclaim.beforeChars))} → ${formatCompactCount(charsToTokens(reclaim.afterChars))} tokens (chars / 4)\n\n`);
			}
			const pending = insight.pending;
			const pendingChars = pending.reduce((sum, batch) => sum + batch.rawChars, 0);
			tooltip.appendMarkdown(pending.length === 0 ? 'Nothing pending\n\n' : `Pending: ${pending.length} batch${pending.length === 1 ? '' : 'es'} · ${formatCompactCount(pendingChars)} chars\n\n`);
			const stats = insight.state.stats;
			tooltip.appendMarkdown(stats && stats.callCount > 0
				? `Summarizer so far: ${formatCost(stats.totalCost)} · ${stats.callCount} call${stats.callCount === 1 ? '' : 's'}\n\n`
				: 'No summarizer calls yet\n\n');
		}
		tooltip.appendMarkdown([
			`[Open preview](command:${CommandId.OpenPreview})`,
			`[Pruned calls](command:${CommandId.ShowTree})`,
			`[Settings](command:${CommandId.Settings})`,
		].join(' · '));
		return tooltip;
	}
}
