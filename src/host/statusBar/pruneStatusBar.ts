/**
 * The status-bar item: pi-condense's status text for the selected session, a tooltip with the
 * session, models, pending batches, chains left for `compact` (with the action) and the
 * summarizer's cost so far, and a click that opens the
 * context preview. Hidden when Pi's `showPruneStatusLine` or `piCondense.statusBar.enabled` is off.
 */
import * as vscode from 'vscode';
import { formatCompactCount, formatCost } from '../../engine/condense';
import { notices } from '../../engine/flush';
import { homedir } from 'node:os';
import { modelLabel } from '../../engine/pruner';
import { INSTALL_COMMAND, newerPiSessionText, piWhereLine, piCondenseLine, shorten } from '../../engine/release';
import { liveFigure, liveLine } from '../../engine/live';
import { joinMarkdown, linkSafe, md, measureLine, type PreparedInsight, pruneHeadline, type PruneState, reclaimMeasures, reclaimText, SafeMarkdown, sentSentence, statusLineText } from '../../engine/views';
import type { FlushEstimate } from '../../engine/preview';
import { CommandId } from '../commandIds';
import { Disposable } from '../dispose';
import type { ExtensionSettings } from '../extensionConfig';
import type { LiveMarks } from '../live/liveMarks';
import type { SessionController } from '../sessionController';
import { fileWorkspaceFolders } from '../sessionLocator';
import { markdownString } from '../ui/safeUi';
import { pruneNowCacheText } from './pruneNowCache';

export interface PruneStatusBarOptions {
	readonly controller: SessionController;
	readonly settings: ExtensionSettings;
	/** Live sessions: the item adds Pi's own figure of the context when a running Pi holds the selected session. */
	readonly live?: LiveMarks;
}

export class PruneStatusBar extends Disposable {
	readonly item: vscode.StatusBarItem;
	private readonly controller: SessionController;
	private shown = false;
	/** Every text the item has shown, in order, since activation (the last 100): tests check it never said a state it corrected. */
	readonly shownTexts: string[] = [];

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
		this._register(this.controller.onDidEstimate(update));
		// The session's title in the tooltip arrives with its background summary.
		this._register(this.controller.onDidChangeSessions((paths) => {
			const selected = this.controller.selected;
			if (selected !== undefined && (!paths || paths.includes(selected))) {
				update();
			}
		}));
		this._register(options.settings.onDidChange(update));
		if (options.live) {
			this._register(options.live.onDidChange(update));
		}
		this.update();
	}

	update(): void {
		const config = this.controller.config;
		// Until the settings and the release are read (a moment after activation) nothing is said, rather than a state corrected later.
		if (!this.controller.stateKnown || !config.showPruneStatusLine || !this.options.settings.current.statusBarEnabled) {
			this.item.hide();
			this.shown = false;
			return;
		}
		const insight = this.controller.insight();
		const installed = this.controller.releaseResolution.kind === 'followed';
		// The status bar renders `$(name)` codicons: linkSafe, though the text is only numbers and our words today.
		const live = this.options.live?.forSession(this.controller.selected)?.state;
		const figure = live && liveFigure(live);
		// Pi's own figure of the context when Pi holds the session: its words, after ours (only numbers).
		this.item.text = `${linkSafe(statusLineText(config, insight, this.controller.activity === 'summarizing', installed))}${figure === undefined ? '' : ` $(radio-tower) ${linkSafe(figure)}`}`;
		if (this.shownTexts.at(-1) !== this.item.text) {
			this.shownTexts.push(this.item.text);
			this.shownTexts.splice(0, Math.max(0, this.shownTexts.length - 100));
		}
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
		const resolution = controller.releaseResolution;
		const state = controller.pruneState;
		// Install starts a process: offered only where it may run (a trusted workspace).
		const offerInstall = state === 'not-installed' && vscode.workspace.isTrusted;
		const warnings = resolution.warnings.length;
		const lines: SafeMarkdown[] = [
			md`**Pi Condense** · ${pruneHeadline(state)}`,
			md`$(package) ${piCondenseLine(resolution, homedir())}${warnings > 0 ? md` · $(warning) ${warnings} warning${warnings === 1 ? '' : 's'} (Show Status)` : ''}`,
			md`${resolution.pi ? md`$(terminal)` : md`$(warning)`} ${piWhereLine(resolution.pi, resolution.piNotFound, (where) => shorten(where, homedir()))}`,
		];
		if (state === 'not-installed') {
			lines.push(offerInstall
				? md`${sentSentence(state)} [Install pi-condense in Pi…](command:${new SafeMarkdown(CommandId.InstallPiCondense)})`
				: md`${sentSentence(state)} Install pi-condense in Pi: ${INSTALL_COMMAND}`);
		} else if (state === 'off') {
			lines.push(md`${sentSentence(state)}`);
		}
		lines.push(path ? md`$(comment-discussion) ${controller.titleOf(path)}` : md`No session selected: pick one in Pi Sessions. This is the state of ${fileWorkspaceFolders().length > 0 ? 'this workspace\'s project' : 'your Pi'}.`);
		const live = this.options.live?.forSession(path)?.state;
		if (live) {
			lines.push(md`$(radio-tower) ${liveLine(live)} · ${commandLink('Last request sent', CommandId.OpenLastSent)}`);
		}
		const newer = insight && newerPiSessionText(insight.model.diagnostics);
		if (newer) {
			lines.push(md`$(warning) ${newer}`);
		}
		if (path) {
			const model = insight?.context.model;
			lines.push(md`Session model: ${model ? `${model.provider}/${model.modelId}` : 'unknown'} · summarizer: ${modelLabel(config.summarizerModel)}`);
		}
		if (insight) {
			lines.push(...this.sessionLines(insight, state));
		}
		lines.push(joinMarkdown(TOOLTIP_LINKS.map(([label, command]) => commandLink(label, command)), ' · '));
		const commands = [...TOOLTIP_LINKS.map(([, command]) => command), CommandId.Compact, ...(offerInstall ? [CommandId.InstallPiCondense] : []), ...(live ? [CommandId.OpenLastSent] : [])];
		return markdownString(joinMarkdown(lines, '\n\n'), { commands, icons: true });
	}

	/**
	 * The selected session's estimate of Summarize now once its dry run is done. The tooltip starts
	 * none (on a large backlog it is seconds of work): the preview and the confirmation do, and the
	 * item is updated when one ends (`onDidEstimate`).
	 */
	private estimate(): FlushEstimate | undefined {
		return this.controller.settledFlushEstimate();
	}

	/** The selected session's figures, in the words of its state (a reclaim is what is sent only while pruning is on). */
	private sessionLines(insight: PreparedInsight, state: PruneState): SafeMarkdown[] {
		const lines: SafeMarkdown[] = [];
		const reclaim = insight.reclaim;
		if (reclaim) {
			// Both measures, named, in the order every surface uses (pi-condense's figure first: the footer's).
			const measures = reclaimMeasures(reclaim);
			lines.push(state === 'on' ? md`Sent, with pi-condense's entries:` : md`Sent now: the whole context, not pruned. ${state === 'off' ? 'With pruning on' : 'With pi-condense installed'}:`);
			lines.push(joinMarkdown(measures.map((measure) => md`${measureLine(measure)}`), '  \n'));
		}
		const pending = insight.pending;
		const pendingChars = pending.reduce((sum, batch) => sum + batch.rawChars, 0);
		// What Summarize now would reclaim is the preview's and the confirmation's figure: a dry run of the flush, worked out once asked.
		const estimate = state === 'on' && pending.length > 0 ? this.estimate() : undefined;
		const reclaimPart = estimate ? md` · Summarize now would reclaim ${reclaimText(estimate)}` : md``;
		lines.push(pending.length === 0 ? md`Nothing pending` : md`Pending: ${pending.length} batch${pending.length === 1 ? '' : 'es'} · ${formatCompactCount(pendingChars)} chars${reclaimPart}`);
		const cache = state === 'on' ? pruneNowCacheText(this.controller, this.controller.selected, Date.now(), estimate?.reclaimChars) : '';
		if (cache !== '') {
			lines.push(md`$(history) ${cache}`);
		}
		const left = state === 'not-installed' ? 0 : insight.compactableChains;
		if (left > 0) {
			lines.push(md`$(fold) ${notices.compactableChainsText(left)} · [Compact](command:${new SafeMarkdown(CommandId.Compact)})`);
		}
		const stats = insight.state.stats;
		lines.push(stats && stats.callCount > 0
			? md`Summarizer so far: ${formatCost(stats.totalCost)} · ${stats.callCount} call${stats.callCount === 1 ? '' : 's'} (the costs its summaries recorded)`
			: md`No summarizer calls yet`);
		return lines;
	}
}

const TOOLTIP_LINKS: readonly (readonly [string, CommandId])[] = [
	['Open preview', CommandId.OpenPreview],
	['Pruned calls', CommandId.ShowTree],
	['Settings', CommandId.Settings],
];

/** A link to one of our commands, without arguments. */
function commandLink(label: string, command: CommandId): SafeMarkdown {
	return md`[${label}](command:${new SafeMarkdown(command)})`;
}
