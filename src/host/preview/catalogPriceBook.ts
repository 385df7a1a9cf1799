/**
 * Catalog prices for the models whose requests recorded no cost (pi-ai loaded only then), each model
 * looked up once: what the Costs panel and Count Pruning price a session's prunes with, as the command
 * line does.
 */
import { NO_PRICES, unpricedModelsSteps, type ModelPrice, type PriceBook, type RequestPoint } from '../../engine/costs';
import type { ModelFacts } from '../../node/llm/modelPricing';
import type { WorkScope } from '../../work';

export class CatalogPriceBook {
	/** Looked up so far (`provider/model`; undefined: unknown to the catalog). */
	private readonly catalog = new Map<string, ModelPrice | undefined>();

	constructor(private readonly work: WorkScope, private readonly lookUp: (provider: string, modelId: string) => Promise<ModelFacts | undefined>) {}

	async bookFor(requests: readonly RequestPoint[], signal: AbortSignal): Promise<PriceBook> {
		const wanted = await this.work.sliced(unpricedModelsSteps(requests), signal);
		if (wanted.length === 0) {
			return NO_PRICES;
		}
		const book = new Map<string, ModelPrice>();
		for (const key of wanted) {
			if (!this.catalog.has(key)) {
				const slash = key.indexOf('/');
				const facts = await this.lookUp(key.slice(0, slash), key.slice(slash + 1)).catch(() => undefined);
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
