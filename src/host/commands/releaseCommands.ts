/**
 * Commands that depend on the installed pi-condense release: `/pruner recovery-grace` (2.3.0 and
 * later) and installing pi-condense into Pi with Pi's own installer.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import * as vscode from 'vscode';
import { askNumber } from './askNumber';
import { RECOVERY_GRACE_PRESETS } from '../../engine/config';
import { parseRecoveryGrace, recoveryGraceSetText, recoveryGraceText } from '../../engine/pruner';
import { INSTALL_COMMAND } from '../../engine/release';
import { restrictedModeRefusal } from '../../engine/views';
import { findPiForTerminal } from '../../node/release/piOnPath';
import { CommandId } from '../commandIds';
import { saveSetting, type CommandContext } from './commandContext';
import { registerCommand, showInfo, showWarning } from '../ui/safeUi';

export function registerReleaseCommands(context: CommandContext): vscode.Disposable[] {
	return [
		registerCommand(CommandId.SetRecoveryGrace, (argument?: number | string) => setRecoveryGrace(context, argument)),
		registerCommand(CommandId.InstallPiCondense, () => installPiCondense(context)),
	];
}

async function setRecoveryGrace(context: CommandContext, argument: number | string | undefined): Promise<string | undefined> {
	const { rules, configured } = context.controller.renderSettings;
	if (!rules.recoveryGrace) {
		const text = `pi-condense ${rules.version} has no recovery grace (added in 2.3.0): recovered output is stubbed at the next flush. Update pi-condense (pi update) to use it.`;
		void showInfo(text);
		return text;
	}
	// A release with the grace always reads the key (default 3).
	const current = configured.recoveryGraceTurns ?? 3;
	const text = argument === undefined ? await askRecoveryGrace(current) : String(argument);
	if (text === undefined) {
		return undefined;
	}
	const parsed = parseRecoveryGrace(text);
	if (!parsed.ok) {
		void showWarning(parsed.message);
		return undefined;
	}
	return saveSetting(context, 'recoveryGraceTurns', parsed.value, recoveryGraceSetText(parsed.value));
}

function askRecoveryGrace(current: number): Promise<string | undefined> {
	return askNumber({
		title: 'Pi Condense: recovery grace (user-turn-groups)',
		placeHolder: `${recoveryGraceText(current)} How long output recovered with context_tree_query stays verbatim.`,
		prompt: 'User messages after which a recovered output is stubbed again (0 disables the grace).',
		presets: RECOVERY_GRACE_PRESETS,
		current,
		parse: parseRecoveryGrace,
	});
}

/**
 * Runs `pi install npm:pi-condense` in a terminal when Pi's command line is on VS Code's PATH or the login
 * shell's (given to the terminal), else says how.
 * Refused in restricted mode: Pi's installer runs npm, or the npmCommand of the settings it merges.
 * The terminal opens in the agent dir (or the home folder), never in the workspace, so no project's
 * `.pi/settings.json` is merged by Pi there.
 */
async function installPiCondense(context: CommandContext): Promise<string> {
	const restricted = restrictedModeRefusal('install', vscode.workspace.isTrusted);
	if (restricted !== undefined) {
		context.logger.warn(restricted);
		void showWarning(`Pi Condense: ${restricted}`, 'Manage Workspace Trust', 'Copy Command').then(async (choice) => {
			if (choice === 'Manage Workspace Trust') {
				await vscode.commands.executeCommand('workbench.trust.manage');
			} else if (choice) {
				await vscode.env.clipboard.writeText(INSTALL_COMMAND);
			}
		});
		return restricted;
	}
	const pi = await findPiForTerminal(context.loginShell());
	if (pi === undefined) {
		const text = `Pi's command line (pi) is neither on the PATH of VS Code nor on your login shell's. In a terminal where pi works, run: ${INSTALL_COMMAND} (add -l for this project only), then restart Pi.`;
		const choice = await showWarning(`Pi Condense: ${text}`, 'Copy Command');
		if (choice) {
			await vscode.env.clipboard.writeText(INSTALL_COMMAND);
		}
		return text;
	}
	context.logger.info(`installing pi-condense with ${pi.command}${pi.path === undefined ? '' : ' (on the login shell\'s PATH, given to the terminal)'}`);
	const agentDir = context.controller.discovery.locations?.agentDir;
	const cwd = agentDir !== undefined && existsSync(agentDir) ? agentDir : homedir();
	const terminal = vscode.window.createTerminal({ name: 'Pi: install pi-condense', iconPath: new vscode.ThemeIcon('package'), cwd, ...(pi.path === undefined ? {} : { env: { PATH: pi.path } }) });
	terminal.show();
	terminal.sendText(INSTALL_COMMAND);
	const text = `Running "${INSTALL_COMMAND}" in a terminal. Pi Condense follows the new release as soon as it is installed; restart Pi to load it there.`;
	void showInfo(`Pi Condense: ${text}`);
	return text;
}
