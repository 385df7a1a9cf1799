/**
 * Remove the Key Set up by Pi Condense: the undo of "Set up a key…". auth.json goes back to its previous
 * bytes while nothing else changed it since; otherwise only that provider's entry is removed, after a
 * confirmation that names it (`storedApiKey.ts`). Refused in restricted mode (it writes a file). With
 * several keys set up, a quick pick says which; the provider may be given as the first argument, and
 * `'confirmed'` as the second answers the confirmation (as Connect takes it). Returns what the user was told.
 */
import * as vscode from 'vscode';
import { errorMessage } from '../../base/errorMessage';
import { restrictedModeRefusal } from '../../engine/views';
import { AuthFileError, removeStoredKey, type KeyRemoval, type StoredKeyRecord } from '../../node/llm/storedApiKey';
import type { SetUpKeys } from '../flush/setUpKeys';
import { registerCommand, showError, showInfo, showQuickPick, showWarning } from '../ui/safeUi';
import { CONFIRMED, type CommandContext } from './commandContext';
import { CommandId } from '../commandIds';


export function registerKeyCommands(context: CommandContext): vscode.Disposable[] {
	return [
		registerCommand(CommandId.RemoveSetUpKey, (provider?: unknown, how?: unknown) => removeSetUpKey(context, typeof provider === 'string' ? provider : undefined, how === CONFIRMED)),
	];
}

async function removeSetUpKey(context: CommandContext, provider: string | undefined, confirmed: boolean): Promise<string | undefined> {
	const { keys, logger } = context;
	const restricted = restrictedModeRefusal('credentials', vscode.workspace.isTrusted);
	if (restricted !== undefined) {
		void showWarning(`Pi Condense: ${restricted}`);
		return restricted;
	}
	const record = await pickRecord(keys, provider);
	if (record === undefined) {
		return undefined;
	}
	if (typeof record === 'string') {
		void showInfo(record);
		return record;
	}
	const name = `"${record.provider}"`;
	try {
		let outcome = await removeStoredKey(record);
		if (outcome.kind === 'confirm') {
			if (!confirmed && !await confirmRemoval(record)) {
				return undefined;
			}
			outcome = await removeStoredKey(record, outcome.fileSha256);
		}
		const told = tell(record, outcome);
		if (outcome.kind === 'confirm') {
			void showWarning(told);
			return told;
		}
		await keys.forget(record);
		logger.info(told);
		void showInfo(told);
		return told;
	} catch (error) {
		const told = `Pi Condense could not remove the key for ${name}: ${errorMessage(error)}`;
		logger.warn(told);
		void showError(told, ...(error instanceof AuthFileError ? ['Open auth.json'] : [])).then((choice) => {
			if (choice !== undefined) {
				void vscode.window.showTextDocument(vscode.Uri.file(record.authPath));
			}
		});
		return told;
	}
}

/** The record to remove: the provider's, the only one, or the one picked; a string says why there is none. */
async function pickRecord(keys: SetUpKeys, provider: string | undefined): Promise<StoredKeyRecord | string | undefined> {
	const records = [...await keys.list()].reverse();
	const candidates = provider === undefined ? records : records.filter((record) => record.provider === provider);
	if (candidates.length === 0) {
		return provider === undefined ? 'Pi Condense: no key set up by Pi Condense is left to remove.' : `Pi Condense: Pi Condense set up no key for "${provider}".`;
	}
	if (candidates.length === 1) {
		return candidates[0];
	}
	const picked = await showQuickPick(candidates.map((record) => ({
		label: record.provider, description: `saved ${new Date(record.at).toLocaleString()}`, detail: record.authPath, iconPath: new vscode.ThemeIcon('key'), record,
	})), { title: 'Pi Condense: remove which key set up by Pi Condense?' });
	return picked?.record;
}

async function confirmRemoval(record: StoredKeyRecord): Promise<boolean> {
	const button = `Remove the Key for "${record.provider}"`;
	const detail = [
		`${record.authPath} changed since Pi Condense saved the key (Pi refreshed a login, or another program wrote it), so it cannot be put back as it was.`,
		`Only the "${record.provider}" entry is removed; every other key and login stays.`,
		...(record.replacedEntry ? [`The key "${record.provider}" had before Pi Condense saved this one is not brought back.`] : []),
	].join(' ');
	// A dialog VS Code refuses to show (an extension test run's workbench does) is a "no".
	const choice = await showWarning(`Remove the key for "${record.provider}" from Pi's auth.json?`, { modal: true, detail }, button).catch(() => undefined);
	return choice === button;
}

function tell(record: StoredKeyRecord, outcome: KeyRemoval): string {
	const name = `"${record.provider}"`;
	switch (outcome.kind) {
		case 'restored':
			return outcome.removedFile
				? `Pi Condense: removed the key for ${name}. ${record.authPath} did not exist before Pi Condense saved it, so it is removed again.`
				: `Pi Condense: removed the key for ${name}: ${record.authPath} is again, byte for byte, what it was before${record.replacedEntry ? `, with the earlier key for ${name}` : ''} (still readable by you only, mode 600).`;
		case 'removed':
			return `Pi Condense: removed the ${name} entry from ${record.authPath}; every other key and login is kept.`;
		case 'gone':
			return `Pi Condense: nothing to remove for ${name}: ${outcome.reason}.`;
		case 'confirm':
			return `Pi Condense: ${record.authPath} changed again while you were asked, so nothing was removed. Run Remove the Key Set up by Pi Condense again.`;
	}
}
