/**
 * Connecting Pi to VS Code: installing the bridge into the user's Pi (after saying what it is and
 * does), removing it, opening the last request a live Pi sent, and `/pruner now` / `compact` on a
 * session a live Pi holds: the bridge puts the command into Pi's editor and the user presses Enter
 * there, so pi-condense's own command runs in Pi (nothing is written to the session from here); where
 * Pi cannot say whether its editor holds a draft (RPC mode), the user is told what to type instead.
 * All of it acts on Pi, so all of it is refused in restricted mode. With the argument `'confirmed'`
 * Connect and Disconnect do not ask (as the other commands take their value as an argument).
 */
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { PrunerSubcommand } from '../../engine/live';
import { type RestrictedAction, restrictedModeRefusal } from '../../engine/views';
import { bridgeInstallStatus, installBridge, uninstallBridge } from '../../node/bridge/bridgeInstall';
import { errorMessage } from '../../base/errorMessage';
import type { BridgeInstallState } from '../live/bridgeInstallState';
import type { LastSentDocuments } from '../live/lastSentDocuments';
import type { LiveSessions } from '../live/liveSessions';
import { registerCommand, showError, showInfo, showWarning } from '../ui/safeUi';
import { CONFIRMED, type CommandContext } from './commandContext';
import { CommandId } from '../commandIds';

export interface BridgeCommandContext extends CommandContext {
	readonly live: LiveSessions;
	readonly lastSentDocuments: LastSentDocuments;
	/** The extension's dist/bridge: what Connect copies into Pi. */
	readonly bridgeSource: string;
	/** Read again after Connect and Disconnect (the palette offers one or the other from it). */
	readonly bridgeInstall: BridgeInstallState;
}


export function connectDetail(agentDir: string): string {
	return [
		`It copies the bridge, a small Pi extension shipped with Pi Condense, to ${join(agentDir, 'pi-condense-vscode-bridge')} and adds it as the last entry of "packages" in ${join(agentDir, 'settings.json')} (what "pi install <path>" does), so Pi loads it after pi-condense.`,
		'Each Pi then opens a socket only you can use (a private folder, a random token) and tells VS Code which session it holds, its model and context figure, and what its last model request really sent, so the preview can show it and check itself against it.',
		'From VS Code it can only put "/pruner now" or "/pruner compact" into Pi\'s editor: you press Enter in Pi. It never sends text to the model, never changes the model or the tools, and never writes to the session. Restart Pi (or /reload) to load it; Disconnect removes it.',
	].join('\n\n');
}

export function registerBridgeCommands(context: BridgeCommandContext): vscode.Disposable[] {
	return [
		registerCommand(CommandId.ConnectPi, (argument?: unknown) => connect(context, argument === CONFIRMED).finally(() => context.bridgeInstall.refresh())),
		registerCommand(CommandId.DisconnectPi, (argument?: unknown) => disconnect(context, argument === CONFIRMED).finally(() => context.bridgeInstall.refresh())),
		registerCommand(CommandId.OpenLastSent, (path?: unknown) => openLastSent(context, sessionArgument(path) ?? context.controller.selected)),
		registerCommand(CommandId.CompareRequests, (path?: unknown) => compareRequests(context, sessionArgument(path) ?? context.controller.selected)),
	];
}

/** The refusal shown in restricted mode, or undefined when the action may go ahead. */
function refuseWhenRestricted(context: CommandContext, action: RestrictedAction): string | undefined {
	const restricted = restrictedModeRefusal(action, vscode.workspace.isTrusted);
	if (restricted !== undefined) {
		context.logger.warn(restricted);
		void showWarning(`Pi Condense: ${restricted}`, 'Manage Workspace Trust').then((choice) => choice && vscode.commands.executeCommand('workbench.trust.manage'));
	}
	return restricted;
}

/** Pi's agent folder when Pi's install may be changed now; otherwise what the user was told (or undefined). */
function agentDirToChange(context: CommandContext): { readonly agentDir: string } | { readonly told: string | undefined } {
	const refused = refuseWhenRestricted(context, 'connect');
	if (refused !== undefined) {
		return { told: refused };
	}
	const agentDir = context.controller.discovery.locations?.agentDir;
	if (agentDir === undefined) {
		void showWarning('Pi Condense: Pi\'s agent folder is not located yet; try again in a moment.');
		return { told: undefined };
	}
	return { agentDir };
}

async function connect(context: BridgeCommandContext, confirmed: boolean): Promise<string | undefined> {
	const target = agentDirToChange(context);
	if ('told' in target) {
		return target.told;
	}
	const { agentDir } = target;
	if (!confirmed) {
		const choice = await showInfo('Connect Pi to VS Code?', { modal: true, detail: connectDetail(agentDir) }, 'Connect');
		if (choice !== 'Connect') {
			return undefined;
		}
	}
	try {
		const status = await installBridge(agentDir, context.bridgeSource);
		const text = `Pi Condense: the bridge ${status.version ?? ''} is installed in Pi, as the last package of ${join(agentDir, 'settings.json')}. Restart Pi (or type /reload in Pi) to connect; a Pi that runs it shows as live in Pi Sessions.`;
		context.logger.info(text);
		void showInfo(text);
		return text;
	} catch (error) {
		const text = `Pi Condense: could not connect Pi to VS Code: ${errorMessage(error)}`;
		context.logger.error(text);
		void showError(text);
		return text;
	}
}

async function disconnect(context: BridgeCommandContext, confirmed: boolean): Promise<string | undefined> {
	const target = agentDirToChange(context);
	if ('told' in target) {
		return target.told;
	}
	const { agentDir } = target;
	const status = await bridgeInstallStatus(agentDir);
	if (!status.inSettings && status.version === undefined) {
		const text = 'Pi Condense: Pi is not connected to VS Code (the bridge is not installed).';
		void showInfo(text);
		return text;
	}
	if (!confirmed) {
		const detail = `It removes ${status.folder} and its entry in ${join(agentDir, 'settings.json')}. Running Pis keep the bridge until they restart.`;
		if (await showInfo('Disconnect Pi from VS Code?', { modal: true, detail }, 'Disconnect') !== 'Disconnect') {
			return undefined;
		}
	}
	try {
		await uninstallBridge(agentDir);
		const text = 'Pi Condense: the bridge is removed from Pi. Pis running now keep it until they restart.';
		context.logger.info(text);
		void showInfo(text);
		return text;
	} catch (error) {
		const text = `Pi Condense: could not disconnect Pi from VS Code: ${errorMessage(error)}`;
		void showError(text);
		return text;
	}
}

/** A session path from a command's argument: a path, or a Pi Sessions row (its context menu). */
function sessionArgument(argument: unknown): string | undefined {
	if (typeof argument === 'string') {
		return argument;
	}
	const path = (argument as { item?: { path?: unknown } } | undefined)?.item?.path;
	return typeof path === 'string' ? path : undefined;
}

/** The live Pi holding `path`, or undefined once the user was told there is none. */
function livePiOf(context: BridgeCommandContext, path: string | undefined): ReturnType<LiveSessions['forSession']> {
	const pi = context.live.forSession(path);
	if (!pi) {
		void showInfo(NOT_LIVE, 'Connect Pi to VS Code…').then((choice) => choice && vscode.commands.executeCommand(CommandId.ConnectPi));
	}
	return pi;
}

const NOT_LIVE = 'Pi Condense: no running Pi with a bridge holds this session. Connect Pi to VS Code, then restart Pi.';

/** Opens the last request the live Pi holding `path` sent, written for reading; says why when there is none. */
export async function openLastSent(context: BridgeCommandContext, path: string | undefined): Promise<string | undefined> {
	const pi = livePiOf(context, path);
	if (!pi) {
		return NOT_LIVE;
	}
	try {
		await context.lastSentDocuments.open(pi);
		return undefined;
	} catch (error) {
		const text = `Pi Condense: ${errorMessage(error)}`;
		void showWarning(text);
		return text;
	}
}

/**
 * Compare with Previous Request: the diff editor between the last two requests kept for the live session
 * at `path`. Returns the diff's title, or what the user was told instead.
 */
export async function compareRequests(context: BridgeCommandContext, path: string | undefined): Promise<string> {
	const pi = livePiOf(context, path);
	if (!pi) {
		return NOT_LIVE;
	}
	try {
		return await context.lastSentDocuments.compare(pi);
	} catch (error) {
		const text = `Pi Condense: ${errorMessage(error)}`;
		void showInfo(text);
		return text;
	}
}

/**
 * `/pruner now` or `/pruner compact` for a session a live Pi holds: put into Pi's editor through its
 * bridge. Returns what the user was told (undefined when no live Pi holds the session).
 */
export async function prunerInPi(context: BridgeCommandContext, mode: PrunerSubcommand, path: string): Promise<string | undefined> {
	const pi = context.live.forSession(path);
	if (!pi) {
		return undefined;
	}
	const refused = refuseWhenRestricted(context, 'actOnPi');
	if (refused !== undefined) {
		return refused;
	}
	try {
		const text = await pi.client.putPrunerCommand(mode);
		const told = `Pi Condense: Pi (pid ${pi.state.pid}) holds this session, so pi-condense runs it there: ${text} is in Pi's editor. Press Enter in Pi to run it.`;
		context.logger.info(told);
		void showInfo(told);
		return told;
	} catch (error) {
		const told = `Pi Condense: Pi (pid ${pi.state.pid}) holds this session and did not take ${mode === 'now' ? '/pruner now' : '/pruner compact'}: ${errorMessage(error)}. Type it in Pi's editor yourself and press Enter.`;
		context.logger.warn(told);
		void showWarning(told);
		return told;
	}
}
