/**
 * The Costs panel's data for the session the page shows. Its first paint is the overview the store's
 * ledger already holds (the timeline, the cache rebuilds, the summary: no pass over the file); every
 * prune's account (renders of the session with and without each prune) follows, worked out in slices
 * under the page's scope, and is posted when complete. A newer session, snapshot or settings stop the
 * accounts under way; the same model, settings and release are not worked out twice.
 */
import { costsViewOf, NO_PRICES, sessionCostsSteps, unpricedModels, type CostsLedger, type ModelPrice, type PriceBook } from '../../engine/costs';
import type { ToWebview } from '../../shared/protocol';
import type { LatestWins, WorkScope } from '../../work';
import type { SessionFeed, ShownSession } from './sessionFeed';

export interface PageCostsOptions {
	readonly work: WorkScope;
	readonly source: SessionFeed;
	readonly post: (message: ToWebview) => Thenable<unknown> | Promise<unknown>;
}

/** What the page was last given: accounts are worked out again only when one of these changed. */
interface Shown {
	readonly session: ShownSession;
	readonly ledger: CostsLedger;
	readonly complete: boolean;
}

export class PageCosts {
	private shown: Shown | undefined;
	/** The panel is open: nothing is worked out while it is closed. */
	private open = false;
	private readonly accounts: LatestWins;
	/** Catalog prices looked up so far (`provider/model`; undefined: unknown to the catalog). */
	private readonly catalog = new Map<string, ModelPrice | undefined>();

	constructor(private readonly options: PageCostsOptions) {
		this.accounts = options.work.latestWins((signal) => this.workOutAccounts(signal));
	}

	/** The page was loaded again: it holds nothing. */
	forget(): void {
		this.shown = undefined;
	}

	/** The panel was opened or closed. */
	show(open: boolean): Promise<void> {
		this.open = open;
		return open ? this.update() : Promise.resolve();
	}

	/** Posts the overview of the session shown now when it changed, then works its prunes out (the panel open). */
	async update(): Promise<void> {
		if (!this.open) {
			return;
		}
		const session = this.options.source.current();
		const ledger = session?.costs;
		if (!session || !ledger) {
			if (this.shown !== undefined || session !== undefined) {
				this.shown = undefined;
				await this.options.post({ type: 'costs', sessionPath: session?.path ?? '', costs: undefined });
			}
			return;
		}
		if (this.shown && sameInputs(this.shown, session, ledger)) {
			return;
		}
		this.shown = { session, ledger, complete: false };
		const book = await this.prices(ledger);
		await this.options.post({ type: 'costs', sessionPath: session.path, costs: costsViewOf(ledger.overview(book)) });
		void this.accounts.request('restart');
	}

	private async workOutAccounts(signal: AbortSignal): Promise<void> {
		const shown = this.shown;
		if (!shown || shown.complete || signal.aborted) {
			return;
		}
		const { session, ledger } = shown;
		const prices = await this.prices(ledger);
		const costs = await this.options.work.sliced(sessionCostsSteps({ model: session.model, rules: session.rules, config: session.config, prices, ledger }), signal);
		if (this.shown !== shown) {
			return; // another session or snapshot came meanwhile: its own run posts it
		}
		this.shown = { ...shown, complete: true };
		await this.options.post({ type: 'costs', sessionPath: session.path, costs: costsViewOf(ledger.overview(prices), costs) });
	}

	/** Catalog prices for the models whose requests recorded no cost (pi-ai loaded only then). */
	private async prices(ledger: CostsLedger): Promise<PriceBook> {
		const wanted = unpricedModels(ledger.timeline().requests);
		if (wanted.length === 0) {
			return NO_PRICES;
		}
		const book = new Map<string, ModelPrice>();
		for (const key of wanted) {
			if (!this.catalog.has(key)) {
				const slash = key.indexOf('/');
				const facts = await this.options.source.modelPricing(key.slice(0, slash), key.slice(slash + 1)).catch(() => undefined);
				this.catalog.set(key, facts?.cost);
			}
			const price = this.catalog.get(key);
			if (price) {
				book.set(key, price);
			}
		}
		return book;
	}
}

function sameInputs(shown: Shown, session: ShownSession, ledger: CostsLedger): boolean {
	return shown.session.path === session.path && shown.ledger === ledger && shown.session.config === session.config && shown.session.rules === session.rules;
}
