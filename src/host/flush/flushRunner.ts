/**
 * Runs `/pruner now` and `/pruner compact` on a session: first, when asked, the confirmation that
 * says what will be written and by which model (`pruneConfirmation.ts`); then `flushSession` with a
 * cancellable notification showing one line per batch (streamed characters), the status bar saying
 * `prune: summarizing…` meanwhile, what was done and how afterwards beside what the dry run before
 * it estimated (`flushOutcomeText.ts`), the written entries handed to the stranded-entries monitor
 * and their bytes to Undo Last Prune.
 * Cancelling aborts the summarizer calls and writes nothing. One flush at a time.
 */
import * as vscode from 'vscode';
import type { FlushMode } from '../../engine/flush';
import { checkFlushable, flushSession, type FlushSessionRequest } from '../../node/flush/flushSession';
import { outcome, type FlushOutcome } from '../../node/flush/flushOutcome';
import { restrictedModeRefusal, type SessionInsight } from '../../engine/views';
import { toAbortSignal } from '../cancellation';
import type { SummarizerFactory } from '../../node/llm/defaultSummarizer';
import type { PiHolderCheck, SessionBase } from '../../node/write';
import type { SessionController } from '../sessionController';
import { FlushProgressText } from './flushProgressText';
import type { StrandedEntriesMonitor } from './strandedEntriesMonitor';
import { showInfo, showWarning, withProgress } from '../ui/safeUi';
import { tellOutcome } from './flushOutcomeText';
import { confirmPrune, type ConfirmDeps } from './pruneConfirmation';
import type { UndoPrunes } from './undoPrunes';
import type { WorkScope } from '../../work';

export interface FlushRunnerOptions {
	/** Its own scope: a flush runs under it; closing it aborts the flush (nothing written) and waits for it. */
	readonly work: WorkScope;
	readonly controller: SessionController;
	readonly logger: vscode.LogOutputChannel;
	readonly monitor: StrandedEntriesMonitor;
	/** Each flush's default summarizer, from the pi-ai worker (pi-ai never loads on the host). */
	readonly summarizers: SummarizerFactory;
	/** `piCondense.summarizer.concurrency`, read when a flush starts. */
	readonly concurrency: () => number;
	/** Which model a flush would summarize with (the confirmation asks the pi-ai worker). */
	readonly planSummarizer: ConfirmDeps['planSummarizer'];
	/** Where the writes of ours go, so that Undo Last Prune can remove them. */
	readonly undo: UndoPrunes;
	/** Where the confirmation's "Set up a key…" saves a key (and remembers it for its removal). */
	readonly keys: ConfirmDeps['keys'];
	/** Whether Pi holds the session, asked right before writing (default: the process check). */
	readonly checkPiHolders?: PiHolderCheck;
}

export class FlushRunner {
	private current: AbortController | undefined;

	constructor(private readonly options: FlushRunnerOptions) {}

	get isRunning(): boolean {
		return this.current !== undefined;
	}

	/** Aborts the running flush, as its notification's Cancel button does. */
	cancel(): void {
		this.current?.abort();
	}

	/**
	 * A flush the user asked for: with `confirm`, first the modal that says what will be written and
	 * by which model (undefined when the user says no); then notification progress with Cancel.
	 */
	async run(mode: FlushMode, sessionPath: string, options: { readonly confirm?: boolean } = {}): Promise<FlushOutcome | undefined> {
		const restricted = this.refusedHere();
		if (restricted) {
			return restricted;
		}
		if (options.confirm === true && !this.current) {
			// What would be refused anyway (Pi holds the session, pruning off, pi-condense missing) is said at once: no question first.
			const refused = await this.preflight(mode, sessionPath);
			this.options.logger.info(`${mode} on ${sessionPath}: preflight ${refused ? `refused: ${refused.message}` : 'passed'}`);
			if (refused) {
				tellOutcome(refused, { mode, interactive: true, sessionPath, title: this.options.controller.titleOf(sessionPath), logger: this.options.logger, piCondenseMissing: this.options.controller.renderSettingsFor(sessionPath).resolution.kind === 'not-installed' });
				return refused;
			}
			const logger = this.options.logger;
			if (!await confirmPrune(mode, sessionPath, { controller: this.options.controller, planSummarizer: this.options.planSummarizer, keys: this.options.keys, log: (message) => logger.info(message) })) {
				logger.info(`${mode} on ${sessionPath}: not confirmed, nothing written`);
				return undefined;
			}
		}
		const verb = mode === 'now' ? 'Summarizing pending batches of' : 'Compacting closed chains of';
		return this.guarded(sessionPath, mode, () => withProgress({
			location: vscode.ProgressLocation.Notification,
			title: `Pi Condense: ${verb} "${this.options.controller.titleOf(sessionPath)}"`,
			cancellable: true,
		}, (progress, token) => this.flush(mode, sessionPath, true, token, (line) => progress.report({ message: line.text, increment: line.increment }))));
	}

	/** A flush the extension started by itself (auto-flush): status bar progress only, notices only when something happened. */
	runQuietly(sessionPath: string): Promise<FlushOutcome | undefined> {
		return this.guarded(sessionPath, 'now', () => withProgress({
			location: vscode.ProgressLocation.Window,
			title: 'Pi Condense: summarizing',
		}, (progress) => this.flush('now', sessionPath, false, undefined, (line) => progress.report({ message: line.text }))));
	}

	/** The refusal of restricted mode, said to the user; undefined in a trusted workspace. */
	private refusedHere(): FlushOutcome | undefined {
		const restricted = restrictedModeRefusal('flush', vscode.workspace.isTrusted);
		if (restricted === undefined) {
			return undefined;
		}
		this.options.logger.warn(restricted);
		void showWarning(restricted, 'Manage Workspace Trust').then((choice) => choice && vscode.commands.executeCommand('workbench.trust.manage'));
		return outcome('refused', restricted);
	}

	private async guarded(sessionPath: string, mode: FlushMode, work: () => Thenable<FlushOutcome>): Promise<FlushOutcome | undefined> {
		const restricted = this.refusedHere();
		if (restricted) {
			return restricted;
		}
		if (this.options.work.isClosed) {
			return undefined;
		}
		if (this.current) {
			void showInfo('Pi Condense: a flush is already running; wait for it or cancel it.');
			return undefined;
		}
		this.current = new AbortController();
		this.options.controller.setActivity('summarizing');
		try {
			// The scope's work: closing it (the window closes) aborts the flush and waits for it.
			const outcome = await this.options.work.run(async (signal) => {
				const abort = (): void => this.cancel();
				signal.addEventListener('abort', abort, { once: true });
				try {
					return await work();
				} finally {
					signal.removeEventListener('abort', abort);
				}
			});
			this.options.monitor.track(sessionPath, outcome.entries?.map((prepared) => prepared.entry.id) ?? []);
			if (outcome.written && outcome.entries && outcome.entries.length > 0) {
				this.options.undo.remember(sessionPath, outcome.written, outcome.entries.length, mode);
			}
			return outcome;
		} finally {
			this.current = undefined;
			this.options.controller.setActivity('idle');
		}
	}

	/** The refusal the flush would answer with before any summarizer call, if any (`checkFlushable`). */
	private async preflight(mode: FlushMode, sessionPath: string): Promise<FlushOutcome | undefined> {
		const settings = this.options.controller.renderSettingsFor(sessionPath);
		const open = await this.openSession(sessionPath);
		return checkFlushable(this.options.work, { sessionPath, mode, config: settings.configured, resolution: settings.resolution, base: open?.base });
	}

	/**
	 * The open session's model and the offset it reaches, with what the views derived from it; undefined
	 * when it cannot be opened (the flush reads the file).
	 */
	private async openSession(sessionPath: string): Promise<{ readonly base: SessionBase; readonly insight: SessionInsight } | undefined> {
		try {
			const session = await this.options.controller.openSession(sessionPath);
			return { base: { model: session.model, consumedBytes: session.consumed }, insight: session.insight(this.options.controller.renderSettingsFor(sessionPath)) };
		} catch {
			return undefined;
		}
	}

	private async flush(mode: FlushMode, sessionPath: string, interactive: boolean, token: vscode.CancellationToken | undefined, report: (line: { text: string; increment: number }) => void): Promise<FlushOutcome> {
		const { controller, logger } = this.options;
		// The session's own settings: its project may load another release than the selected session's.
		const settings = controller.renderSettingsFor(sessionPath);
		const agentDir = controller.discovery.locations?.agentDir;
		const own = this.current ?? new AbortController();
		const cancel = token ? toAbortSignal(token) : undefined;
		cancel?.signal.addEventListener('abort', () => own.abort());
		const lines = new FlushProgressText();
		logger.info(`${mode} on ${sessionPath}`);
		try {
			// The figure the confirmation and the preview gave (kept with the session's insight), for the toast to set beside the result.
			const estimate = interactive ? await controller.flushEstimateFor(sessionPath, mode).catch(() => undefined) : undefined;
			const open = await this.openSession(sessionPath);
			const request: FlushSessionRequest = {
				sessionPath,
				agentDir: agentDir ?? '',
				mode,
				config: settings.configured,
				rules: settings.rules,
				resolution: settings.resolution,
				summarizers: this.options.summarizers,
				// The model the extension already holds: the preflight reads only what was appended since, and
				// the branch, context and state the views derived from it are not built again.
				base: open?.base,
				insight: open?.insight,
				interactive,
				concurrency: this.options.concurrency(),
				...(this.options.checkPiHolders ? { writeOptions: { checkPiHolders: this.options.checkPiHolders } } : {}),
				signal: own.signal,
				logger,
				onProgress: (event) => {
					const line = lines.line(event);
					if (line) {
						logger.info(line.text);
						report(line);
					}
				},
			};
			const flushed = agentDir === undefined
				? outcome('refused', 'pruner: nothing flushed — the Pi agent directory is not located yet')
				: await flushSession(this.options.work, request);
			tellOutcome(flushed, { mode, interactive, sessionPath, title: controller.titleOf(sessionPath), logger, piCondenseMissing: settings.resolution.kind === 'not-installed', estimate });
			return flushed;
		} finally {
			cancel?.dispose();
		}
	}
}
