/**
 * Show Status: the whole report (pi-condense's `/pruner status`, the Pi and release followed, the
 * summarizer's library, the session) as a read-only markdown document, `pi-condense:/status.md`,
 * shown in the markdown preview, readable and copyable; a short toast beside it says the state in
 * one line. The plain text goes to the log and is the command's result.
 */
import { homedir } from 'node:os';
import { basename } from 'node:path';
import * as vscode from 'vscode';
import { newerPiSessionText, releaseLine, releaseStatusLines } from '../../engine/release';
import { notices } from '../../engine/flush';
import { statusReportText } from '../../engine/pruner';
import { pruneHeadline, reportMarkdown } from '../../engine/views';
import { CommandId } from '../commandIds';
import { pruneUri } from '../recovery/pruneUris';
import { showInfo } from '../ui/safeUi';
import type { CommandContext } from './commandContext';

export interface StatusReport {
	/** The report in plain text, as the log and the command's result carry it. */
	readonly text: string;
	/** One line for the toast. */
	readonly short: string;
	/** Chains a killed flush left raw: the toast offers Compact. */
	readonly compactable: number;
	/** The selected session's title; undefined when none is selected. */
	readonly session: string | undefined;
	/** False when the selected session is not in the list now (its file gone, or the list being read again): no figures then. */
	readonly listed: boolean;
}

export async function composeStatusReport(context: CommandContext): Promise<StatusReport> {
	const { controller } = context;
	const path = controller.selected;
	// The selection outlives the list for a while: Refresh reads the list again before it selects again,
	// and a deleted file leaves the list first. Its figures cannot be read then (a listed session's only).
	const listed = path !== undefined && controller.knowsSession(path);
	const insight = listed ? await controller.insightFor(path) : undefined;
	const report = statusReportText(controller.config, insight?.state.stats, controller.rules, insight && { metrics: insight.metrics, rearmed: insight.rearmed });
	const newer = insight && newerPiSessionText(insight.model.diagnostics);
	const release = [...releaseStatusLines(controller.releaseResolution, homedir()), ...(newer ? [`  note: ${newer}`] : [])];
	const library = `summarizer models and credentials: ${await context.summarizerLibrary()}`;
	// Out of the list its title is unknown: its file's name says which (its whole path made the toast a paragraph).
	const title = path === undefined ? undefined : listed ? controller.titleOf(path) : basename(path);
	const session = title === undefined ? 'no session selected' : `session "${title}"${listed ? '' : ', not listed now'}`;
	// Chains a killed flush left raw (the release's now then stops at "nothing pending").
	const left = insight && controller.releaseResolution.kind !== 'not-installed' ? insight.compactableChains : 0;
	const compactable = left > 0 ? [notices.compactableChainsText(left)] : [];
	return {
		text: [report, ...release, ...compactable.map((text) => `${text}: Compact Closed Chains Now compresses them`), library, `(${session})`].join('\n'),
		short: `Pi Condense status: ${[pruneHeadline(controller.pruneState), ...compactable, releaseLine(controller.releaseResolution, homedir()), session].join(' · ')}`,
		compactable: left,
		session: title,
		listed,
	};
}

/** The report as the status document's markdown. */
export function statusMarkdown(report: StatusReport): string {
	const notes = [
		report.session === undefined ? 'No session selected: pick one in Pi Sessions for its figures.'
			: report.listed ? `Figures of the session "${report.session}".`
				: `The selected session "${report.session}" is not in Pi Sessions now (its file is gone, or the list is being read again): no figures.`,
		'This document follows the selected session and the settings as they change.',
	];
	// The last line, `(session "…")`, is said in the notes.
	return reportMarkdown({ title: 'Pi Condense status', text: report.text.split('\n').slice(0, -1).join('\n'), notes }).value;
}

export const STATUS_DOCUMENT = pruneUri({ kind: 'status' });

/** Opens the status document (read anew) in the markdown preview, and says the state in a toast. */
export async function showStatus(context: CommandContext): Promise<string> {
	const report = await composeStatusReport(context);
	context.logger.info(report.text);
	context.refreshStatusDocument();
	await vscode.commands.executeCommand('markdown.showPreview', STATUS_DOCUMENT).then(undefined, () => vscode.window.showTextDocument(STATUS_DOCUMENT));
	const compact = report.compactable > 0 ? ['Compact'] : [];
	void showInfo(report.short, ...compact).then((choice) => {
		if (choice === 'Compact') {
			void vscode.commands.executeCommand(CommandId.Compact);
		}
	});
	return report.text;
}
