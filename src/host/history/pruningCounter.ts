/**
 * Count the Pruning of Every Session (the Pi Costs view's "not counted yet" row): the pruned sessions
 * whose prunes the session index does not count are read one at a time, each prune accounted as the
 * Costs panel accounts it (its project's release and settings, catalog prices for models that recorded
 * none), and kept in the index; the history's costs then count their pruning. A visible job with
 * Cancel: what was counted stays counted. It starts no process and writes no session file (it reads them,
 * and writes only the index, Pi Condense's own cache), so it runs in restricted mode too, as the Costs panel does;
 * a restricted workspace's own settings and pi-condense are not followed there (the store's settings say so).
 */
import * as vscode from 'vscode';
import { accountsBasis, sessionCostsSteps, storedAccountsOf } from '../../engine/costs';
import { errorMessage } from '../../base/errorMessage';
import type { ModelLookup } from '../../node/llm/modelPricing';
import { OpenSession } from '../../node/store/openSession';
import { isWorkStopped, type WorkScope } from '../../work';
import { CatalogPriceBook } from '../preview/catalogPriceBook';
import type { SessionController } from '../sessionController';
import { showInfo, showWarning, withProgress } from '../ui/safeUi';

export class PruningCounter {
	private running: Promise<string> | undefined;
	private readonly prices: CatalogPriceBook;

	constructor(private readonly work: WorkScope, private readonly controller: SessionController, lookUp: ModelLookup, private readonly log: (message: string) => void) {
		this.prices = new CatalogPriceBook(work, (provider, modelId) => {
			const agentDir = controller.discovery.locations?.agentDir;
			return agentDir === undefined ? Promise.resolve(undefined) : lookUp(agentDir, provider, modelId);
		});
	}

	/** Counts every pruned session not counted yet (once at a time: a second call joins the first); says what it did. */
	run(): Promise<string> {
		this.running ??= this.countAll().finally(() => {
			this.running = undefined;
		});
		return this.running;
	}

	private async countAll(): Promise<string> {
		const due = await this.controller.accountsDue();
		if (due.length === 0) {
			return this.tell('The pruning of every pruned session is counted already.');
		}
		const job = this.work.child('count pruning');
		let counted = 0;
		let cancelled = false;
		const failed: string[] = [];
		try {
			await withProgress({ location: vscode.ProgressLocation.Notification, title: `Pi Condense: counting the pruning of ${sessions(due.length)}`, cancellable: true }, async (progress, token) => {
				const cancel = token.onCancellationRequested(() => void job.close());
				try {
					for (const [at, session] of due.entries()) {
						progress.report({ message: `${at + 1} of ${due.length}: ${this.controller.titleOf(session.path)}`, increment: 100 / due.length });
						try {
							counted += await this.countOne(job, session.path) ? 1 : 0;
						} catch (error) {
							if (isWorkStopped(error) || job.isClosed) {
								cancelled = true;
								return;
							}
							failed.push(session.path);
							this.log(`count pruning: ${session.path}: ${errorMessage(error)}`);
						}
					}
				} finally {
					cancel.dispose();
				}
			});
		} finally {
			await job.close();
		}
		const left = due.length - counted;
		const text = `counted the pruning of ${sessions(counted)}${cancelled ? ` before Cancel; ${sessions(left)} left for next time` : ''}`
			+ `${failed.length > 0 ? `; ${sessions(failed.length)} could not be read (the log says why)` : ''}.`;
		return this.tell(`Pi Condense ${text}`, failed.length > 0);
	}

	/** Accounts one session's prunes and keeps them; false when its project's settings are not known. */
	private async countOne(job: WorkScope, path: string): Promise<boolean> {
		const settings = await this.controller.readySettingsFor(path);
		if (settings === undefined) {
			return false;
		}
		const session = await OpenSession.open(job, path, { keepCosts: true, signal: job.signal });
		const ledger = session.costs;
		if (ledger === undefined) {
			return false;
		}
		const prices = await this.prices.bookFor(ledger.timeline().requests, job.signal);
		const costs = await job.sliced(sessionCostsSteps({ model: session.model, rules: settings.rules, config: settings.config, prices, ledger }), job.signal);
		await this.controller.keepAccounts(path, session.consumed, accountsBasis(settings.rules, settings.config), storedAccountsOf(session.model.entries, costs.timeline, costs.accounts));
		return true;
	}

	private tell(text: string, warn = false): string {
		this.log(text);
		void (warn ? showWarning(text) : showInfo(text));
		return text;
	}
}

function sessions(count: number): string {
	return `${count.toLocaleString('en')} session${count === 1 ? '' : 's'}`;
}
