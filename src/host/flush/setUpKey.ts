/**
 * "Set up a key…" of the confirmation before a flush: store an API key for the provider in Pi's
 * auth.json (as Pi's `/login` stores one, under Pi's own lock, every other entry kept, mode 0600 after,
 * never over a file that does not parse: `storedApiKey.ts`), or choose another summarizer model (the
 * picker lists the models that have credentials), or read how to set the provider's environment
 * variable. The key is never logged or shown. Refused in restricted mode (it writes a file). A key
 * saved here is taken out again by Remove the Key Set up by Pi Condense.
 */
import * as vscode from 'vscode';
import { restrictedModeRefusal } from '../../engine/views';
import { errorMessage } from '../../base/errorMessage';
import { authFilePath } from '../../node/llm/authFile';
import { AuthFileError } from '../../node/llm/storedApiKey';
import { CommandId } from '../commandIds';
import { showError, showInfo, showInputBox, showQuickPick, showWarning } from '../ui/safeUi';
import type { SetUpKeys } from './setUpKeys';

export interface KeySetUp {
	readonly agentDir: string;
	/** The provider of the model that needs a key (undefined: only another model or the environment). */
	readonly provider: string | undefined;
	readonly envVars: readonly string[];
	readonly keys: SetUpKeys;
}

type Choice = vscode.QuickPickItem & { readonly action: 'store' | 'model' | 'environment' };

/** Resolves true when a key was stored or another model chosen: the caller asks again. */
export async function setUpKey({ agentDir, provider, envVars, keys }: KeySetUp): Promise<boolean> {
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
			return provider !== undefined && storeKey(keys, agentDir, provider);
		case 'model':
			return (await vscode.commands.executeCommand<string | undefined>(CommandId.SelectModel)) !== undefined;
		case 'environment':
			void showInfo(`Set ${envVars.join(' or ')} in the environment VS Code starts with (your shell profile, for example), then restart VS Code. Pi Condense reads the same variables as Pi.`);
			return false;
		default:
			return false;
	}
}

async function storeKey(keys: SetUpKeys, agentDir: string, provider: string): Promise<boolean> {
	const restricted = restrictedModeRefusal('credentials', vscode.workspace.isTrusted);
	if (restricted !== undefined) {
		void showWarning(restricted);
		return false;
	}
	const path = authFilePath(agentDir);
	const key = await showInputBox({
		title: `Pi Condense: API key for ${provider}`,
		prompt: `Saved in ${path} (mode 0600), where Pi keeps the keys of /login. Pi and Pi Condense both use it.`,
		password: true,
		ignoreFocusOut: true,
		validateInput: (value) => (value.trim() === '' ? 'Enter the key, or press Escape.' : undefined),
	});
	if (key === undefined || key.trim() === '') {
		return false;
	}
	try {
		const { modeWas } = await keys.store(agentDir, provider, key.trim());
		const mode = modeWas === undefined ? '' : ` It was readable by others (mode ${modeWas.toString(8)}); it is now readable by you only (mode 600).`;
		void showInfo(`Pi Condense: the key for ${provider} is saved in ${path}, every other key and login kept.${mode} Remove the Key Set up by Pi Condense takes it out again.`);
		return true;
	} catch (error) {
		void showError(`Pi Condense could not save the key: ${errorMessage(error)}`, ...(error instanceof AuthFileError ? ['Open auth.json'] : [])).then((choice) => {
			if (choice !== undefined) {
				void vscode.window.showTextDocument(vscode.Uri.file(path));
			}
		});
		return false;
	}
}
