/**
 * The only way text reaches VS Code's surfaces that render links, codicons or markdown:
 * notifications (and their buttons), progress titles, quick picks, input boxes and markdown
 * strings (hovers, tooltips). Every string goes through `linkSafe`, every markdown is `SafeMarkdown`
 * built by the `md` tag (src/engine/views/safeText.ts), so nothing a session file, a model or a
 * settings file says becomes a `command:` link, a web link or an icon. Lint forbids calling those
 * VS Code functions anywhere else. Commands are registered here too: VS Code shows a failing
 * command's error message as a notification with its links live, so a failure is shown safely here.
 */
import * as vscode from 'vscode';
import { linkSafe, type SafeMarkdown } from '../../engine/views';
import { errorMessage } from '../../base/errorMessage';

export interface NotifyOptions {
	/** A modal dialog, with `detail` below the message. */
	readonly modal?: boolean;
	readonly detail?: string;
}

type Show = (message: string, options: vscode.MessageOptions, ...items: string[]) => Thenable<string | undefined>;

function notify(show: Show, message: string, optionsOrAction: NotifyOptions | string | undefined, actions: readonly string[]): Promise<string | undefined> {
	const options = typeof optionsOrAction === 'object' ? optionsOrAction : {};
	const labels = typeof optionsOrAction === 'string' ? [optionsOrAction, ...actions] : actions;
	const shown = new Map(labels.map((label) => [linkSafe(label), label]));
	const messageOptions: vscode.MessageOptions = { modal: options.modal === true, ...(options.detail === undefined ? {} : { detail: linkSafe(options.detail) }) };
	return Promise.resolve(show(linkSafe(message), messageOptions, ...shown.keys())).then((choice) => (choice === undefined ? undefined : shown.get(choice)));
}

/** An information notification; resolves with the action chosen (as given), or undefined. */
export function showInfo(message: string, options?: NotifyOptions | string, ...actions: string[]): Promise<string | undefined> {
	return notify((text, opts, ...items) => vscode.window.showInformationMessage(text, opts, ...items), message, options, actions);
}

export function showWarning(message: string, options?: NotifyOptions | string, ...actions: string[]): Promise<string | undefined> {
	return notify((text, opts, ...items) => vscode.window.showWarningMessage(text, opts, ...items), message, options, actions);
}

export function showError(message: string, options?: NotifyOptions | string, ...actions: string[]): Promise<string | undefined> {
	return notify((text, opts, ...items) => vscode.window.showErrorMessage(text, opts, ...items), message, options, actions);
}

/** `window.withProgress` with a safe title; progress messages reported by the task are made safe too. */
export function withProgress<R>(
	options: vscode.ProgressOptions,
	task: (progress: vscode.Progress<{ message?: string; increment?: number }>, token: vscode.CancellationToken) => Thenable<R>,
): Thenable<R> {
	return vscode.window.withProgress({ ...options, ...(options.title === undefined ? {} : { title: linkSafe(options.title) }) }, (progress, token) => task({
		report: (value) => progress.report(value.message === undefined ? value : { ...value, message: linkSafe(value.message) }),
	}, token));
}

function safeItem<T extends vscode.QuickPickItem>(item: T): T {
	return {
		...item,
		label: linkSafe(item.label),
		...(item.description === undefined ? {} : { description: linkSafe(item.description) }),
		...(item.detail === undefined ? {} : { detail: linkSafe(item.detail) }),
	};
}

/** Safe copies of items, and the way back from a copy to the item given. */
class SafeItems<T extends vscode.QuickPickItem> {
	private readonly originals = new Map<T, T>();

	copy(items: readonly T[]): T[] {
		return items.map((item) => {
			const safe = safeItem(item);
			this.originals.set(safe, item);
			return safe;
		});
	}

	original(safe: T | undefined): T | undefined {
		return safe === undefined ? undefined : this.originals.get(safe);
	}
}

function safePickOptions(options: vscode.QuickPickOptions): vscode.QuickPickOptions {
	return {
		...options,
		...(options.title === undefined ? {} : { title: linkSafe(options.title) }),
		...(options.placeHolder === undefined ? {} : { placeHolder: linkSafe(options.placeHolder) }),
	};
}

/** `window.showQuickPick` for one item; resolves with the item given, not its safe copy. */
export async function showQuickPick<T extends vscode.QuickPickItem>(items: readonly T[], options: vscode.QuickPickOptions = {}): Promise<T | undefined> {
	const safe = new SafeItems<T>();
	return safe.original(await vscode.window.showQuickPick(safe.copy(items), { ...safePickOptions(options), canPickMany: false }));
}

export interface PickOneOptions<T extends vscode.QuickPickItem> {
	readonly title: string;
	readonly placeholder?: string;
	readonly items: readonly T[];
	/** The item focused at first. */
	readonly active?: T;
	readonly matchOnDescription?: boolean;
	readonly matchOnDetail?: boolean;
	/** Items that replace `items` once known (the pick shows busy until then); it must not reject. */
	readonly later?: Promise<readonly T[]>;
}

/** A quick pick that can preselect an item and fill in items later (`showQuickPick` cannot). */
export function pickOne<T extends vscode.QuickPickItem>(options: PickOneOptions<T>): Promise<T | undefined> {
	const safe = new SafeItems<T>();
	const quickPick = vscode.window.createQuickPick<T>();
	quickPick.title = linkSafe(options.title);
	quickPick.placeholder = options.placeholder === undefined ? undefined : linkSafe(options.placeholder);
	quickPick.matchOnDescription = options.matchOnDescription === true;
	quickPick.matchOnDetail = options.matchOnDetail === true;
	const items = safe.copy(options.items);
	quickPick.items = items;
	const active = options.active === undefined ? undefined : items[options.items.indexOf(options.active)];
	if (active) {
		quickPick.activeItems = [active];
	}
	if (options.later) {
		quickPick.busy = true;
		void options.later.then((later) => {
			quickPick.items = safe.copy(later);
		}).finally(() => {
			quickPick.busy = false;
		});
	}
	return new Promise((resolve) => {
		quickPick.onDidAccept(() => {
			resolve(safe.original(quickPick.selectedItems[0]));
			quickPick.hide();
		});
		quickPick.onDidHide(() => {
			resolve(undefined);
			quickPick.dispose();
		});
		quickPick.show();
	});
}

export interface SearchPickOptions<T extends vscode.QuickPickItem> {
	readonly title: string;
	readonly placeholder: string;
	/** The text the pick opens with (searched at once). */
	readonly value?: string;
	/** The typed text, each time it changes: answer with `show` (busy while a search runs), as often as needed. */
	readonly onValue: (value: string, show: (items: readonly T[], busy: boolean) => void) => void;
	/** Called once the pick closes (accepted or not): stop what still runs for it. */
	readonly onClose?: () => void;
}

/**
 * A quick pick whose items are the answer to what is typed (a search), not a filter of fixed items:
 * every item is shown as given, in the order given. Resolves with the item accepted, or undefined.
 */
export function searchPick<T extends vscode.QuickPickItem>(options: SearchPickOptions<T>): Promise<T | undefined> {
	const safe = new SafeItems<T>();
	const quickPick = vscode.window.createQuickPick<T>();
	quickPick.title = linkSafe(options.title);
	quickPick.placeholder = linkSafe(options.placeholder);
	quickPick.matchOnDescription = false;
	quickPick.matchOnDetail = false;
	let latest = '';
	const showFor = (value: string) => (items: readonly T[], busy: boolean): void => {
		if (value === latest) {
			// VS Code would filter and re-order by the label: the search already chose and ranked them.
			quickPick.items = safe.copy(items.map((item) => ({ ...item, alwaysShow: true })));
			quickPick.busy = busy;
		}
	};
	quickPick.onDidChangeValue((value) => {
		latest = value;
		options.onValue(value, showFor(value));
	});
	return new Promise((resolve) => {
		quickPick.onDidAccept(() => {
			const chosen = quickPick.selectedItems[0];
			if (chosen === undefined) {
				return; // Enter before the results came: the pick stays open for them
			}
			resolve(safe.original(chosen));
			quickPick.hide();
		});
		quickPick.onDidHide(() => {
			resolve(undefined);
			options.onClose?.();
			quickPick.dispose();
		});
		latest = options.value ?? '';
		quickPick.value = latest;
		quickPick.show();
		options.onValue(latest, showFor(latest));
	});
}

/** `window.showInputBox` with a safe title, prompt, placeholder and validation messages. */
export function showInputBox(options: vscode.InputBoxOptions): Thenable<string | undefined> {
	const validate = options.validateInput?.bind(options);
	return vscode.window.showInputBox({
		...options,
		...(options.title === undefined ? {} : { title: linkSafe(options.title) }),
		...(options.prompt === undefined ? {} : { prompt: linkSafe(options.prompt) }),
		...(options.placeHolder === undefined ? {} : { placeHolder: linkSafe(options.placeHolder) }),
		validateInput: validate && (async (value) => {
			const message = await validate(value);
			return typeof message === 'string' ? linkSafe(message) : message;
		}),
	});
}

export interface MarkdownOptions {
	/** The only commands its links may run; none means no command link works. */
	readonly commands?: readonly string[];
	/** Renders our `$(name)` codicons (values inserted by `md` cannot make one). */
	readonly icons?: boolean;
}

/** A markdown string for a hover or tooltip: no HTML, and command links only to the commands named. */
export function markdownString(content: SafeMarkdown, options: MarkdownOptions = {}): vscode.MarkdownString {
	const markdown = new vscode.MarkdownString(content.value, options.icons === true);
	markdown.supportHtml = false;
	markdown.isTrusted = options.commands === undefined || options.commands.length === 0 ? false : { enabledCommands: [...options.commands] };
	return markdown;
}

/**
 * `commands.registerCommand` for our commands: an error thrown by the handler (its message may quote a
 * session) is shown through `showError` and logged, instead of reaching VS Code, which would show it
 * with its links live. The command then resolves with undefined.
 */
export function registerCommand(id: string, handler: (...args: never[]) => unknown, log?: (message: string) => void): vscode.Disposable {
	return vscode.commands.registerCommand(id, async (...args: unknown[]) => {
		try {
			return await (handler as (...args: unknown[]) => unknown)(...args);
		} catch (error) {
			const message = errorMessage(error);
			log?.(`${id}: ${message}`);
			void showError(`Pi Condense: ${message}`);
			return undefined;
		}
	});
}
