/**
 * The `/pruner` subcommands that read or change settings, as VS Code commands: on, off, status,
 * stats, thinking, prune-on, batching, protected-tools, protected-paths, min-batch-chars, dedup,
 * help. With an argument (as in `/pruner dedup off`) a command changes the setting directly; without
 * one it asks with a quick pick or an input box. Each returns the message it showed.
 */
import { homedir } from 'node:os';
import * as vscode from 'vscode';
import { askNumber } from './askNumber';
import { newerPiSessionText, releaseLine, releaseStatusLines } from '../../engine/release';
import { flattenReport, requireSession, saveSetting, showDetailedReport, showReport, type CommandContext } from './commandContext';
import { CommandId } from '../commandIds';
import { pruneUri } from '../recovery/pruneUris';
import { statsText } from '../../engine/condense';
import { pruneHeadline } from '../../engine/views';
import { notices } from '../../engine/flush';
import { BATCHING_MODES, MIN_BATCH_CHARS_PRESETS, PRUNE_ON_MODES, SUMMARIZER_THINKING_LEVELS } from '../../engine/config';
import { batchingSetText, dedupStatusText, DISABLED_TEXT, ENABLED_TEXT, minBatchCharsText, parseBatchingMode, type Parsed, parseDedup, parseMinBatchChars, parseNameList, parsePruneOn, parseThinking, protectedListText, pruneOnSetText, statusReportText, thinkingSetText } from '../../engine/pruner';
import { registerCommand, showInfo, showInputBox, showQuickPick, showWarning } from '../ui/safeUi';

export function registerPrunerCommands(context: CommandContext): vscode.Disposable[] {
	const { controller } = context;
	const config = () => controller.config;
	return [
		registerCommand(CommandId.Enable, () => saveSetting(context, 'enabled', true, ENABLED_TEXT)),
		registerCommand(CommandId.Disable, () => saveSetting(context, 'enabled', false, DISABLED_TEXT)),
		registerCommand(CommandId.Status, async () => {
			const path = controller.selected;
			const insight = path ? await controller.insightFor(path) : undefined;
			const stats = insight?.state.stats;
			const report = statusReportText(config(), stats, controller.rules, insight && { metrics: insight.metrics, rearmed: insight.rearmed });
			const newer = insight && newerPiSessionText(insight.model.diagnostics);
			const release = [...releaseStatusLines(controller.releaseResolution, homedir()), ...(newer ? [`  note: ${newer}`] : [])];
			const library = `summarizer models and credentials: ${await context.summarizerLibrary()}`;
			const session = path ? `session "${controller.titleOf(path)}"` : 'no session selected';
			// Chains a killed flush left raw (the release's now then stops at "nothing pending").
			const left = insight && controller.releaseResolution.kind !== 'not-installed' ? insight.compactableChains : 0;
			const compactable = left > 0 ? [notices.compactableChainsText(left)] : [];
			// Short in the notification (the state, the session); all of it under Details…, one line per line.
			return showDetailedReport(
				context,
				[report, ...release, ...compactable.map((text) => `${text}: Compact Closed Chains Now compresses them`), library, `(${session})`].join('\n'),
				`Pi Condense status: ${[pruneHeadline(controller.pruneState), ...compactable, releaseLine(controller.releaseResolution, homedir()), session].join(' · ')}`,
				left > 0 ? { title: 'Compact', command: CommandId.Compact } : undefined,
			);
		}),
		registerCommand(CommandId.Stats, async () => {
			const path = requireSession(context, 'see its summarizer stats');
			if (!path) {
				return undefined;
			}
			const text = statsText((await controller.insightFor(path)).state.stats);
			return showReport(context, text, `${flattenReport(text)} · session "${controller.titleOf(path)}"`);
		}),
		registerCommand(CommandId.SelectThinking, async (argument?: string) => {
			const value = await chooseOrParse(argument, parseThinking, SUMMARIZER_THINKING_LEVELS, config().summarizerThinking, 'Summarizer thinking level');
			return value === undefined ? undefined : saveSetting(context, 'summarizerThinking', value, thinkingSetText(value));
		}),
		registerCommand(CommandId.SelectPruneTrigger, async (argument?: string) => {
			const value = await chooseOrParse(argument, parsePruneOn, PRUNE_ON_MODES, config().pruneOn, 'When to summarize pending batches');
			return value === undefined ? undefined : saveSetting(context, 'pruneOn', value, pruneOnSetText({ pruneOn: value }));
		}),
		registerCommand(CommandId.SelectBatching, async (argument?: string) => {
			const value = await chooseOrParse(argument, parseBatchingMode, BATCHING_MODES, config().batchingMode, 'Batching mode');
			return value === undefined ? undefined : saveSetting(context, 'batchingMode', value, batchingSetText({ batchingMode: value }));
		}),
		registerCommand(CommandId.EditProtectedTools, (argument?: string | readonly string[]) => editList(context, 'tools', argument)),
		registerCommand(CommandId.EditProtectedPaths, (argument?: string | readonly string[]) => editList(context, 'paths', argument)),
		registerCommand(CommandId.SetMinBatchChars, async (argument?: number | string) => {
			const text = argument ?? await askMinBatchChars(config().minBatchChars);
			if (text === undefined) {
				return undefined;
			}
			const parsed = parseMinBatchChars(String(text));
			return parsed.ok ? saveSetting(context, 'minBatchChars', parsed.value, minBatchCharsText(parsed.value)) : warn(parsed.message);
		}),
		registerCommand(CommandId.SetDedup, async (argument?: boolean | string) => {
			const parsed = typeof argument === 'boolean' ? { ok: true as const, value: argument } : await askDedup(argument, config().dedupByContentHash);
			if (parsed === undefined) {
				return undefined;
			}
			if (!parsed.ok) {
				return warn(parsed.message);
			}
			if (parsed.value === 'status') {
				const text = dedupStatusText(config().dedupByContentHash);
				void showInfo(text);
				return text;
			}
			return saveSetting(context, 'dedupByContentHash', parsed.value, dedupStatusText(parsed.value));
		}),
		registerCommand(CommandId.Help, async () => {
			const uri = pruneUri({ kind: 'help' });
			await vscode.commands.executeCommand('markdown.showPreview', uri).then(undefined, () => vscode.window.showTextDocument(uri));
			return uri.toString();
		}),
	];
}

function warn(message: string): undefined {
	void showWarning(`Pi Condense: ${message} Nothing was changed.`);
	return undefined;
}

/** The argument, validated; or the user's pick among `choices` (the current one marked). */
async function chooseOrParse<T extends string>(
	argument: string | undefined,
	parse: (input: string) => Parsed<T>,
	choices: readonly { readonly value: T; readonly label: string }[],
	current: T,
	title: string,
): Promise<T | undefined> {
	if (argument !== undefined) {
		const parsed = parse(argument);
		return parsed.ok ? parsed.value : warn(parsed.message);
	}
	const picked = await showQuickPick(choices.map((choice) => ({
		label: choice.label,
		description: choice.value === current ? `${choice.value} · current` : choice.value,
		value: choice.value,
	})), { title: `Pi Condense: ${title}`, placeHolder: `Current: ${current}` });
	return picked?.value;
}

async function editList(context: CommandContext, kind: 'tools' | 'paths', argument: string | readonly string[] | undefined): Promise<string | undefined> {
	const key = kind === 'tools' ? 'protectedTools' : 'protectedPaths';
	const current = context.controller.config[key];
	const input = typeof argument === 'string' || argument === undefined ? argument : argument.join(' ');
	const text = input ?? await showInputBox({
		title: `Pi Condense: protected ${kind}`,
		prompt: kind === 'tools'
			? 'Tool names whose output is never summarized, separated by commas or spaces. "none" clears the list.'
			: 'Globs matched against a tool call\'s path argument (* and ? stay within a folder, ** crosses folders). "none" clears the list.',
		value: current.join(', '),
	});
	if (text === undefined) {
		return undefined;
	}
	const parsed = parseNameList(text);
	return parsed.ok ? saveSetting(context, key, parsed.value, protectedListText(kind, parsed.value)) : warn(parsed.message);
}

function askMinBatchChars(current: number): Promise<string | undefined> {
	return askNumber({
		title: 'Pi Condense: min batch chars',
		placeHolder: minBatchCharsText(current),
		prompt: 'Batches with fewer result characters are skipped (0 turns the check off).',
		presets: MIN_BATCH_CHARS_PRESETS,
		current,
		parse: parseMinBatchChars,
	});
}

async function askDedup(argument: string | undefined, current: boolean): Promise<Parsed<boolean | 'status'> | undefined> {
	if (argument !== undefined) {
		return parseDedup(argument);
	}
	const picked = await showQuickPick([
		{ label: 'On', description: current ? 'current' : undefined, value: 'on' },
		{ label: 'Off', description: current ? undefined : 'current', value: 'off' },
	], { title: 'Pi Condense: dedup by content hash', placeHolder: dedupStatusText(current) });
	return picked ? parseDedup(picked.value) : undefined;
}
