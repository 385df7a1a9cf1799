/**
 * The Costs panel's data for the session the page shows, worked out only while the panel is open.
 * Its first paint is the overview the store's ledger already holds (the timeline, the cache rebuilds,
 * the summary: no pass over the file), made into the page's columns in slices; every prune's account
 * (renders of the session with and without each prune) follows, in slices under the page's scope, and
 * is posted when complete, and kept in the session index (the history's costs count that session's pruning
 * from then on). Another session, snapshot, settings or release stops the run under way; the
 * same ones are not worked out twice (a what-if or a view switch changes none of them).
 */
import { accountsBasis, costsViewSteps, sessionCostsSteps, storedAccountsOf, type CostsLedger } from '../../engine/costs';
import { CatalogPriceBook } from './catalogPriceBook';
import type { ToWebview } from '../../shared/protocol';
import type { LatestWins, WorkScope } from '../../work';
import type { SessionFeed, ShownSession } from './sessionFeed';

export interface PageCostsOptions {
	readonly work: WorkScope;
	readonly source: SessionFeed;
	readonly post: (message: ToWebview) => Thenable<unknown> | Promise<unknown>;
}

/** What a run works out: the session as shown, with the ledger of its entries. */
interface Target {
	readonly session: ShownSession;
	readonly ledger: CostsLedger;
}

export class PageCosts {
	/** What the last run requested works out (or worked out); undefined: nothing posted yet. */
	private target: Target | undefined;
	/** The panel is open: nothing is worked out while it is closed. */
	private open = false;
	/** Whether the page was told there are no costs (so it is told once). */
	private toldNone = false;
	private readonly runs: LatestWins;
	private readonly prices: CatalogPriceBook;

	constructor(private readonly options: PageCostsOptions) {
		this.runs = options.work.latestWins((signal) => this.run(signal));
		this.prices = new CatalogPriceBook(options.work, (provider, modelId) => options.source.modelPricing(provider, modelId));
	}

	/** The page was loaded again: it holds nothing. */
	forget(): void {
		this.target = undefined;
		this.toldNone = false;
	}

	/** The panel was opened or closed. */
	show(open: boolean): Promise<void> {
		this.open = open;
		return this.update();
	}

	/** Works the session shown now out when it is not the one worked out already (the panel open). */
	update(): Promise<void> {
		const session = this.options.source.current();
		const ledger = session?.costs;
		if (!this.open || (ledger && this.target && sameInputs(this.target, session, ledger))) {
			return Promise.resolve();
		}
		this.target = session && ledger && { session, ledger };
		return this.runs.request('restart');
	}

	private async run(signal: AbortSignal): Promise<void> {
		const target = this.target;
		if (!target) {
			if (!this.toldNone) {
				this.toldNone = true;
				await this.options.post({ type: 'costs', sessionPath: this.options.source.current()?.path ?? '', costs: undefined });
			}
			return;
		}
		this.toldNone = false;
		const { session, ledger } = target;
		const { work, post } = this.options;
		const prices = await this.prices.bookFor(ledger.timeline().requests, signal);
		const overview = ledger.overview(prices);
		await post({ type: 'costs', sessionPath: session.path, costs: await work.sliced(costsViewSteps(overview), signal) });
		const costs = await work.sliced(sessionCostsSteps({ model: session.model, rules: session.rules, config: session.config, prices, ledger }), signal);
		if (session.consumed !== undefined) {
			this.options.source.keepAccounts?.(session.path, session.consumed, accountsBasis(session.rules, session.config), storedAccountsOf(session.model.entries, costs.timeline, costs.accounts));
		}
		await post({ type: 'costs', sessionPath: session.path, costs: await work.sliced(costsViewSteps(overview, costs), signal) });
	}
}

function sameInputs(target: Target, session: ShownSession | undefined, ledger: CostsLedger): boolean {
	return session !== undefined && target.session.path === session.path && target.ledger === ledger && target.session.config === session.config && target.session.rules === session.rules;
}
