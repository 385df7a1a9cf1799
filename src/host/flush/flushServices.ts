/**
 * The flush side of the host, built together: the stranded-entries monitor, the runner behind
 * `/pruner now` and `/pruner compact`, the records Undo Last Prune reads, the keys its confirmation's
 * "Set up a key…" saved, and the opt-in auto-flush. Closing its scope (the window closes) aborts a
 * running flush and waits for it to end.
 */
import type * as vscode from 'vscode';
import type { SummarizerFactory } from '../../node/llm/defaultSummarizer';
import type { ModelLookup } from '../../node/llm/modelPricing';
import type { PiHolderCheck } from '../../node/write';
import { Disposable } from '../dispose';
import type { ExtensionSettings } from '../extensionConfig';
import type { SessionController } from '../sessionController';
import { AutoFlusher } from './autoFlusher';
import { FlushRunner } from './flushRunner';
import { SetUpKeys } from './setUpKeys';
import { StrandedEntriesMonitor } from './strandedEntriesMonitor';
import { UndoPrunes } from './undoPrunes';
import { SessionRenamer } from './sessionRenamer';
import type { SummarizerPlanner } from '../../node/llm/worker/piAiWorker';
import type { WorkScope } from '../../work';

export interface FlushServicesOptions {
	/** Their scope: closing it aborts a running flush and waits for it. */
	readonly work: WorkScope;
	readonly controller: SessionController;
	readonly logger: vscode.LogOutputChannel;
	readonly settings: ExtensionSettings;
	/** Summarizers and model facts (context windows) from the worker that loads pi-ai off the host's thread. */
	readonly summarizers: SummarizerFactory;
	readonly lookUpModel: ModelLookup;
	readonly planSummarizer: SummarizerPlanner;
	/** Where the records of our writes are kept (the workspace's memento), for Undo Last Prune. */
	readonly memento: vscode.Memento;
	/** Where the records of the keys "Set up a key…" saved are kept (they hold auth.json's previous bytes). */
	readonly secrets: vscode.SecretStorage;
	/** Whether Pi holds a session (the bridges first, then the process check); default: the process check. */
	readonly checkPiHolders?: PiHolderCheck;
}

export class FlushServices extends Disposable {
	readonly monitor: StrandedEntriesMonitor;
	readonly runner: FlushRunner;
	readonly autoFlusher: AutoFlusher;
	readonly undo: UndoPrunes;
	readonly keys: SetUpKeys;
	readonly renamer: SessionRenamer;

	constructor(options: FlushServicesOptions) {
		super();
		const { controller, logger, settings } = options;
		this.monitor = this._register(new StrandedEntriesMonitor(options.work.child('stranded entries'), controller, logger));
		this.undo = this._register(new UndoPrunes(controller, options.memento, () => this.runner.isRunning, options.checkPiHolders));
		this.keys = this._register(new SetUpKeys(options.secrets, logger));
		this.runner = new FlushRunner({
			work: options.work.child('flush'),
			controller, logger, monitor: this.monitor, summarizers: options.summarizers, concurrency: () => settings.current.summarizerConcurrency,
			planSummarizer: options.planSummarizer, undo: this.undo, keys: this.keys, ...(options.checkPiHolders ? { checkPiHolders: options.checkPiHolders } : {}),
		});
		this.renamer = new SessionRenamer({
			work: options.work.child('rename'), controller, undo: this.undo, isFlushing: () => this.runner.isRunning, logger,
			...(options.checkPiHolders ? { checkPiHolders: options.checkPiHolders } : {}),
		});
		this.autoFlusher = this._register(new AutoFlusher({ work: options.work.child('auto-flush'), controller, runner: this.runner, logger, lookUpModel: options.lookUpModel, extensionConfig: () => settings.current }));
		this._register(settings.onDidChange(() => this.autoFlusher.schedule()));
	}
}
