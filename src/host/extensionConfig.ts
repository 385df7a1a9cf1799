/**
 * The VS Code settings of the extension (`piCondense.*`), read in one place and kept current: the
 * one `ExtensionSettings`, made by the composition root and handed to whatever reads them (commands
 * through their `CommandContext`), is the only way to them. The pruning options are not here: they
 * stay in Pi's `contextPrune` and are edited through the settings command.
 */
import * as vscode from 'vscode';
import { concurrencySetting } from '../engine/flush';
import { Disposable } from './dispose';

const CONFIG_SECTION = 'piCondense';

export interface ExtensionConfig {
	/** `piCondense.agentDir`: overrides `$PI_CODING_AGENT_DIR` / `~/.pi/agent`; empty for none. */
	readonly agentDir: string;
	/**
	 * `piCondense.release`: `auto` or a known release, as the user wrote it (a machine setting, so
	 * never from a workspace). `ReleaseSource` reads it and reports a value that is not a release.
	 */
	readonly release: string;
	/** `piCondense.autoFlush.onIdle`: summarize pending batches of idle sessions by itself (opt-in). */
	readonly autoFlushOnIdle: boolean;
	/** `piCondense.statusBar.enabled`: show the prune status item. */
	readonly statusBarEnabled: boolean;
	/** `piCondense.summarizer.concurrency`: summarizer calls a flush run by the extension may have at once. */
	readonly summarizerConcurrency: number;
	/** `piCondense.sessions.openPreviewOnClick`: a click on a session row also opens its context preview. */
	readonly openPreviewOnClick: boolean;
	/** `piCondense.sessions.rowWidth`: characters a session row has room for (its title is shortened to keep the figures in view); 0 never shortens. */
	readonly sessionRowWidth: number;
	/** `piCondense.confirmPrune`: Summarize Now and Compact say what they will do and wait for a yes. */
	readonly confirmPrune: boolean;
	/** `piCondense.annotations.enabled`: annotate the lines of an open session file (tokens, refs, chains, edits). */
	readonly annotationsEnabled: boolean;
	/** `piCondense.liveSessions.keptRequests`: a live session's last requests kept in memory (Compare with Previous Request); 0 keeps none. */
	readonly keptRequests: number;
	/** `piCondense.sessionIndex.enabled` and `.path` (machine settings): the session index, and another file for it. */
	readonly sessionIndex: { readonly enabled: boolean; readonly path: string };
}

/** Reads every setting with its default; only `ExtensionSettings` calls it (at start and on each change). */
function readExtensionConfig(): ExtensionConfig {
	const section = vscode.workspace.getConfiguration(CONFIG_SECTION);
	return {
		agentDir: section.get<string>('agentDir', '').trim(),
		release: section.get<string>('release', 'auto'),
		autoFlushOnIdle: section.get<boolean>('autoFlush.onIdle', false),
		statusBarEnabled: section.get<boolean>('statusBar.enabled', true),
		summarizerConcurrency: concurrencySetting(section.get<unknown>('summarizer.concurrency')),
		openPreviewOnClick: section.get<boolean>('sessions.openPreviewOnClick', true),
		sessionRowWidth: rowWidthSetting(section.get<unknown>('sessions.rowWidth')),
		confirmPrune: section.get<boolean>('confirmPrune', true),
		annotationsEnabled: section.get<boolean>('annotations.enabled', true),
		keptRequests: keptRequestsSetting(section.get<unknown>('liveSessions.keptRequests')),
		sessionIndex: { enabled: section.get<boolean>('sessionIndex.enabled', true), path: section.get<string>('sessionIndex.path', '') },
	};
}

/** Requests kept per live session: a whole number from 0 to 200, else the default 20. */
export const KEPT_REQUESTS_DEFAULT = 20;
function keptRequestsSetting(value: unknown): number {
	return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 200 ? value : KEPT_REQUESTS_DEFAULT;
}

/** Characters of a session row: a whole number from 0 (never shorten) to 500, else the default (the default sidebar width's). */
export const ROW_WIDTH_DEFAULT = 23;
function rowWidthSetting(value: unknown): number {
	return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 500 ? value : ROW_WIDTH_DEFAULT;
}

export interface ExtensionConfigChange {
	readonly current: ExtensionConfig;
	readonly previous: ExtensionConfig;
}

/** The current `piCondense.*` settings, and an event when any of them changes. */
export class ExtensionSettings extends Disposable {
	private readonly _onDidChange = this._register(new vscode.EventEmitter<ExtensionConfigChange>());
	readonly onDidChange = this._onDidChange.event;
	private value = readExtensionConfig();

	constructor() {
		super();
		this._register(vscode.workspace.onDidChangeConfiguration((event) => {
			if (event.affectsConfiguration(CONFIG_SECTION)) {
				const previous = this.value;
				this.value = readExtensionConfig();
				this._onDidChange.fire({ current: this.value, previous });
			}
		}));
	}

	get current(): ExtensionConfig {
		return this.value;
	}
}
