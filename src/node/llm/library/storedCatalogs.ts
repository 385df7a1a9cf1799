/**
 * The model catalogs Pi keeps in `<agentDir>/models-store.json`, laid over pi-ai's built-in providers as Pi
 * 1.x lays them: Pi fetches each built-in provider's catalog from pi.dev every few hours, and a provider's
 * stored models extend and replace its built-in ones (same type and id) when that catalog is newer than the
 * model data its pi-ai was built with; OpenRouter's stored list (the models the user's key may use) replaces
 * its catalog. So a model published after the pi-ai release is known here as it is to the user's Pi.
 * Read only: Pi writes the file; nothing is fetched here.
 */
import { join } from 'node:path';
import { readJsonObjectFile, type JsonObject } from '../jsonFile';
import type { CollectionModel, CollectionProvider } from './modelsJsonProviders';
import { isPlainObject } from '../../../base/plainObject';

interface StoredCatalog {
	readonly models: readonly CollectionModel[];
	readonly lastModified?: number;
}

/** Providers whose stored list replaces the catalog (it is the list the user's key may use). */
const PERSONALIZED = new Set(['openrouter']);
/** Providers whose catalog is theirs alone (a login lists them), not pi.dev's. */
const OWN_CATALOG = new Set(['radius']);

function modelsStorePath(agentDir: string): string {
	return join(agentDir, 'models-store.json');
}

/** The stored catalogs by provider; an unreadable file (Pi may be writing it) counts as none. */
export async function readModelsStore(agentDir: string): Promise<ReadonlyMap<string, StoredCatalog>> {
	const read = await readJsonObjectFile(modelsStorePath(agentDir));
	const catalogs = new Map<string, StoredCatalog>();
	for (const [provider, entry] of Object.entries(read.kind === 'ok' ? read.value : {})) {
		if (isPlainObject(entry) && Array.isArray(entry.models)) {
			const models = entry.models.filter((model): model is JsonObject => isPlainObject(model) && typeof model.id === 'string');
			catalogs.set(provider, {
				models: models.map((model) => ({ ...model, provider }) as CollectionModel),
				lastModified: typeof entry.lastModified === 'number' ? entry.lastModified : undefined,
			});
		}
	}
	return catalogs;
}

/** `generatedAt`: when the pi-ai's model data was generated (its `getBuiltinModelDataGeneratedAt`). */
export function withStoredCatalogs(builtIns: readonly CollectionProvider[], stored: ReadonlyMap<string, StoredCatalog>, generatedAt: number | undefined): CollectionProvider[] {
	return builtIns.map((provider) => {
		const catalog = stored.get(provider.id);
		if (!catalog || OWN_CATALOG.has(provider.id)) {
			return provider;
		}
		if (PERSONALIZED.has(provider.id)) {
			return catalog.models.length > 0 ? withModels(provider, () => catalog.models) : provider;
		}
		const newer = generatedAt === undefined || (catalog.lastModified !== undefined && catalog.lastModified > generatedAt);
		return newer ? withModels(provider, () => merged(allModels(provider), catalog.models)) : provider;
	});
}

/** Every model of a provider, of every type (pi-ai 1.x lists image and classifier models apart from chat ones). */
function allModels(provider: CollectionProvider): readonly CollectionModel[] {
	const all = provider.getAllModels;
	return typeof all === 'function' ? (all as () => readonly CollectionModel[]).call(provider) : provider.getModels();
}

function withModels(provider: CollectionProvider, models: () => readonly CollectionModel[]): CollectionProvider {
	const chat = (): readonly CollectionModel[] => models().filter((model) => (model.type ?? 'chat') === 'chat');
	return { ...provider, getModels: chat, getAllModels: models };
}

/** The built-in models with the stored ones over them, by type and id. */
function merged(builtIn: readonly CollectionModel[], stored: readonly CollectionModel[]): CollectionModel[] {
	const byKey = new Map<string, CollectionModel>();
	for (const model of [...builtIn, ...stored]) {
		byKey.set(`${model.type ?? 'chat'}\0${model.id}`, model);
	}
	return [...byKey.values()];
}
