/**
 * Catalog prices for the requests that recorded no cost: pi-ai's model catalog with the user's
 * models.json, reached only through `src/node/llm` (pi-ai is loaded on first use, here only when some
 * request needs a price). Nothing is loaded when every request recorded its cost.
 */
import { errorMessage } from '../base/errorMessage';
import type { ModelPrice, PriceBook } from '../engine/costs';

export { unpricedModelsSteps } from '../engine/costs';
import { createPiAiLoader } from '../node/llm/piAiLoader';
import { lookUpModel } from '../node/llm/modelPricing';
import { cliAgentDir } from './cliAgentDir';

/** Looks `models` (`provider/model`) up; says on `warn` why it could not, and goes on without. */
export async function catalogPrices(models: readonly string[], agentDirOption: string | undefined, warn: (text: string) => void): Promise<PriceBook> {
	const book = new Map<string, ModelPrice>();
	if (models.length === 0) {
		return book;
	}
	const agentDir = cliAgentDir(agentDirOption);
	// One short-lived process in the user's own shell: the installed Pi's pi-ai when there is one.
	const loadPiAi = createPiAiLoader({ distDir: __dirname, installed: { allowed: true } });
	try {
		for (const key of models) {
			const slash = key.indexOf('/');
			const found = await lookUpModel(loadPiAi, agentDir, key.slice(0, slash), key.slice(slash + 1));
			if (found) {
				book.set(key, found.cost);
			}
		}
	} catch (error) {
		warn(`model prices unavailable (${errorMessage(error)}): requests that recorded no cost count as free`);
	}
	return book;
}
