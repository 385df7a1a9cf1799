/**
 * Price and context window of one model, from pi-ai's catalog with models.json applied (loads
 * pi-ai: call it on demand only). Undefined for a model nobody knows.
 */
import type { PiAiLoader } from './library/modelLibrary';

export interface ModelFacts {
	readonly provider: string;
	readonly modelId: string;
	readonly name: string;
	readonly contextWindow: number;
	/** USD per million tokens. */
	readonly cost: { readonly input: number; readonly output: number; readonly cacheRead: number; readonly cacheWrite: number };
}

export async function lookUpModel(loadPiAi: PiAiLoader, agentDir: string, provider: string, modelId: string): Promise<ModelFacts | undefined> {
	const catalog = await (await loadPiAi()).openCatalog(agentDir, 'probe');
	const model = catalog.find(provider, modelId);
	if (!model) {
		return undefined;
	}
	const { input, output, cacheRead, cacheWrite } = model.cost;
	return { provider: model.provider, modelId: model.id, name: model.name, contextWindow: model.contextWindow, cost: { input, output, cacheRead, cacheWrite } };
}

/** A lookup answered elsewhere (the extension's pi-ai worker). */
export type ModelLookup = (agentDir: string, provider: string, modelId: string) => Promise<ModelFacts | undefined>;
