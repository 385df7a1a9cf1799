/**
 * Runs `/pruner now` and `/pruner compact` on a session: `flushSession` with a cancellable
 * notification showing one line per batch (streamed characters), the status bar saying
 * `prune: summarizing…` meanwhile, pi-condense's final notice afterwards (with what to do when it was
 * refused or failed), and the written entries handed to the stranded-entries monitor. Cancelling
 * aborts the summarizer calls and writes nothing. One flush at a time.
 */
import * as vscode from 'vscode';
import { notices as flushNotices, type FlushMode } from '../../engine/flush';
import { flushSession, type FlushSessionRequest } from '../../node/flush/flushSession';
import { outcome, type FlushOutcome } from '../../node/flush/flushOutcome';
import { restrictedModeRefusal } from '../../engine/views/restrictedMode';
import { toAbortSignal } from '../cancellation';
import { CommandId } from '../commands/commandIds';
import type { SummarizerFactory } from '../../node/flush/defaultSummarizer';
import type { PiHolderCheck, SessionBase } from '../../node/write';
import type { SessionController } from '../sessionController';
import { FlushProgressText } from './flushProgressText';

/** A first flush may skip tens of thousands of trivial batches: the log shows this many, then counts the rest. */
const LOGGED_SKIPS_PER_RUN = 50;
import type { StrandedEntriesMonitor } from './strandedEntriesMonitor';
import { showError, showInfo, showWarning, withProgress } from '../ui/safeUi';

const INSTALL_ACTION = 'Install pi-condense in Pi…';
const COMPACT_ACTION = 'Compact';

export interface FlushRunnerOptions {
	readonly controller: SessionController;
	readonly logger: vscode.LogOutputChannel;
	readonly monitor: StrandedEntriesMonitor;
	/** Each flush's default summarizer, from the pi-ai worker (pi-ai never loads on the host). */
	readonly summarizers: SummarizerFactory;
	/** `piCondense.summarizer.concurrency`, read when a flush starts. */
	readonly concurrency: () => number;
	/** Whether Pi holds the session, asked right before writing (default: the process check). */
	readonly checkPiHolders?: PiHolderCheck;
}

export class FlushRunner {
	private current: AbortController | undefined;
	/** The running flush, settled (never rejected), for `stop`. */
	private running: Promise<unknown> = Promise.resolve();
	private stopped = false;

	constructor(private readonly options: FlushRunnerOptions) {}

	get isRunning(): boolean {
		return this.current !== undefined;
	}

	/** Aborts the running flush, as its notification's Cancel button does. */
	cancel(): void {
		this.current?.abort();
	}

	/**
	 * The window is closing: aborts the running flush (its summarizer calls and its write) and
	 * resolves once it has ended; no flush starts after this.
	 */
	async stop(): Promise<void> {
		this.stopped = true;
		this.cancel();
		await this.running;
	}

	/** A flush the user asked for: notification progress with Cancel. */
	run(mode: FlushMode, sessionPath: string): Promise<FlushOutcome | undefined> {
		const verb = mode === 'now' ? 'Summarizing pending batches of' : 'Compacting closed chains of';
		return this.guarded(sessionPath, () => withProgress({
			location: vscode.ProgressLocation.Notification,
			title: `Pi Condense: ${verb} "${this.options.controller.titleOf(sessionPath)}"`,
			cancellable: true,
		}, (progress, token) => this.flush(mode, sessionPath, true, token, (line) => progress.report({ message: line.text, increment: line.increment }))));
	}

	/** A flush the extension started by itself (auto-flush): status bar progress only, notices only when something happened. */
	runQuietly(sessionPath: string): Promise<FlushOutcome | undefined> {
		return this.guarded(sessionPath, () => withProgress({
			location: vscode.ProgressLocation.Window,
			title: 'Pi Condense: summarizing',
		}, (progress) => this.flush('now', sessionPath, false, undefined, (line) => progress.report({ message: line.text }))));
	}

	private async guarded(sessionPath: string, work: () => Thenable<FlushOutcome>): Promise<FlushOutcome | undefined> {
		const restricted = restrictedModeRefusal('flush', vscode.workspace.isTrusted);
		if (restricted !== undefined) {
			this.options.logger.warn(restricted);
			void showWarning(restricted, 'Manage Workspace Trust').then((choice) => choice && vscode.commands.executeCommand('workbench.trust.manage'));
			return outcome('refused', restricted);
		}
		if (this.stopped) {
			return undefined;
		}
		if (this.current) {
			void showInfo('Pi Condense: a flush is already running; wait for it or cancel it.');
			return undefined;
		}
		this.current = new AbortController();
		this.options.controller.setActivity('summarizing');
		try {
			const running = work();
			this.running = Promise.resolve(running).catch(() => undefined);
			const outcome = await running;
			this.options.monitor.track(sessionPath, outcome.entries?.map((prepared) => prepared.entry.id) ?? []);
			return outcome;
		} finally {
			this.current = undefined;
			this.options.controller.setActivity('idle');
		}
	}

	/** The open session's model and the offset it reaches; undefined when it cannot be opened (the flush reads the file). */
	private async openBase(sessionPath: string): Promise<SessionBase | undefined> {
		try {
			const session = await this.options.controller.openSession(sessionPath);
			return { model: session.model, consumedBytes: session.consumed };
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
			const request: FlushSessionRequest = {
				sessionPath,
				agentDir: agentDir ?? '',
				mode,
				config: settings.configured,
				release: settings.release,
				resolution: settings.resolution,
				summarizers: this.options.summarizers,
				// The model the extension already holds: the preflight reads only what was appended since.
				base: await this.openBase(sessionPath),
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
				: await flushSession(request);
			this.tell(flushed, interactive, sessionPath, settings.resolution.kind === 'not-installed');
			return flushed;
		} finally {
			cancel?.dispose();
		}
	}

	/** pi-condense's notice as it words it, then which session it is about and what to do. */
	private tell(outcome: FlushOutcome, interactive: boolean, sessionPath: string, piCondenseMissing: boolean): void {
		const { logger } = this.options;
		// The last notice is the message, logged below with the session's name.
		const notices = [...outcome.notices.shortened(LOGGED_SKIPS_PER_RUN)];
		for (const notice of notices.slice(0, -1)) {
			logger.info(notice);
		}
		const title = this.options.controller.titleOf(sessionPath);
		const text = `${outcome.message} (session "${title}")${outcome.advice ? ` ${outcome.advice}` : ''}`;
		// A `now` that found nothing pending leaves the chains a killed flush did not reach, as the release does.
		const left = outcome.report?.compactableChains ?? 0;
		switch (outcome.kind) {
			case 'written':
			case 'nothing': {
				const told = left > 0 ? `${text} · ${flushNotices.compactableChainsText(left)}` : text;
				logger.info(told);
				if (interactive || outcome.kind === 'written') {
					const actions = left > 0 ? [COMPACT_ACTION] : [];
					void showInfo(told, ...actions).then((choice) => choice && vscode.commands.executeCommand(CommandId.Compact, sessionPath));
				}
				return;
			}
			case 'aborted':
				logger.info(text);
				if (interactive) {
					void showInfo(text);
				}
				return;
			case 'refused':
				logger.warn(text);
				// flushSession refused because Pi has no pi-condense: offer to install it.
				if (interactive && piCondenseMissing) {
					void showWarning(text, INSTALL_ACTION).then((choice) => choice && vscode.commands.executeCommand(CommandId.InstallPiCondense));
				} else if (interactive) {
					void showWarning(text);
				}
				return;
			case 'failed':
				logger.error(text);
				void showError(text, 'Show Log').then((choice) => choice && logger.show(true));
				return;
		}
	}
}
