/**
 * "Set up a key…" of the confirmation before a flush: store an API key for the provider in Pi's
 * auth.json (as Pi's `/login` stores one: `{ "type": "api_key", "key": … }`, under Pi's own lock,
 * mode 0600, every other entry kept), or choose another summarizer model (the picker lists the
 * models that have credentials), or read how to set the provider's environment variable. The key
 * is never logged or shown. Refused in restricted mode (it writes a file).
 */
import { open } from 'node:fs/promises';
import * as vscode from 'vscode';
import { restrictedModeRefusal } from '../../engine/views';
import { errorMessage } from '../../base/errorMessage';
import { errorCode } from '../../node/fs/errors';
import { authFilePath } from '../../node/llm/authFile';
import { createAuthJsonStore } from '../../node/llm/library/authJsonStore';
import { CommandId } from '../commandIds';
import { showError, showInfo, showInputBox, showQuickPick, showWarning } from '../ui/safeUi';

type Choice = vscode.QuickPickItem & { readonly action: 'store' | 'model' | 'environment' };

/** Resolves true when a key was stored or another model chosen: the caller asks again. */
export async function setUpKey(agentDir: string, provider: string | undefined, envVars: readonly string[]): Promise<boolean> {
	const items: Choice[] = [
		...(provider === undefined ? [] : [{
			label: `Enter an API key for ${provider}…`, description: 'saved in Pi\'s auth.json, where Pi\'s /login keeps keys', iconPath: new vscode.ThemeIcon('key'), action: 'store' as const,
		}]),
		{ label: 'Use another summarizer model…', description: 'a model you have a key for (contextPrune.summarizerModel)', iconPath: new vscode.ThemeIcon('settings'), action: 'model' },
		...(envVars.length === 0 ? [] : [{
			label: `Set ${envVars.join(' or ')} for VS Code`, description: 'in the environment VS Code starts with', iconPath: new vscode.ThemeIcon('terminal'), action: 'environment' as const,
		}]),
	];
	const picked = await showQuickPick(items, { title: 'Pi Condense: a key for the summarizer', placeHolder: 'Pi Condense uses the keys your Pi uses: auth.json, then the provider\'s environment variable, then models.json' });
	switch (picked?.action) {
		case 'store':
			return provider !== undefined && storeKey(agentDir, provider);
		case 'model':
			return (await vscode.commands.executeCommand<string | undefined>(CommandId.SelectModel)) !== undefined;
		case 'environment':
			void showInfo(`Set ${envVars.join(' or ')} in the environment VS Code starts with (your shell profile, for example), then restart VS Code. Pi Condense reads the same variables as Pi.`);
			return false;
		default:
			return false;
	}
}

async function storeKey(agentDir: string, provider: string): Promise<boolean> {
	const restricted = restrictedModeRefusal('credentials', vscode.workspace.isTrusted);
	if (restricted !== undefined) {
		void showWarning(restricted);
		return false;
	}
	const key = await showInputBox({
		title: `Pi Condense: API key for ${provider}`,
		prompt: `Saved in ${authFilePath(agentDir)} (mode 0600), where Pi keeps the keys of /login. Pi and Pi Condense both use it.`,
		password: true,
		ignoreFocusOut: true,
		validateInput: (value) => (value.trim() === '' ? 'Enter the key, or press Escape.' : undefined),
	});
	if (key === undefined || key.trim() === '') {
		return false;
	}
	try {
		await ensureAuthFile(authFilePath(agentDir));
		await createAuthJsonStore({ agentDir, mode: 'request' }).modify(provider, () => Promise.resolve({ type: 'api_key', key: key.trim() }));
		void showInfo(`Pi Condense: the key for ${provider} is saved in Pi's auth.json.`);
		return true;
	} catch (error) {
		void showError(`Pi Condense could not save the key in ${authFilePath(agentDir)}: ${errorMessage(error)}`);
		return false;
	}
}

/** Pi's lock needs the file to exist: an empty one is created (0600, never replacing one that appears meanwhile). */
async function ensureAuthFile(path: string): Promise<void> {
	try {
		const handle = await open(path, 'wx', 0o600);
		await handle.writeFile('{}');
		await handle.close();
	} catch (error) {
		if (errorCode(error) !== 'EEXIST') {
			throw error;
		}
	}
}
