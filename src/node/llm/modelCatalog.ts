/**
 * The models the summarizer can use: pi-ai's built-ins with models.json's provider and per-model
 * overrides applied, plus models.json's custom models (custom wins on the same provider/id), plus
 * the OAuth providers' model adjustments (GitHub Copilot's per-token base URL). Mirrors Pi 0.73.1's
 * `ModelRegistry.loadModels`, for a pi-ai 0.7x (`library/legacyLibrary.ts`).
 */
import type { Api, Model } from '@mariozechner/pi-ai';
import type { AuthFile } from './authFile';
import type { JsonObject } from './jsonFile';
import { customModelFields, modelsJsonPath, readModelsJson, type ModelDefinition, type ModelOverride, type ModelsJson, type ProviderConfig } from './modelsJson';
import type { LegacyPiAi as PiAi } from './library/legacyPiAi';
import { isPlainObject } from '../../base/plainObject';

export type PiModel = Model<Api>;

/** What models.json adds to each request of a provider; values are resolved per request. */
export interface ProviderRequestConfig {
	readonly apiKey?: string;
	readonly headers?: Readonly<Record<string, string>>;
	readonly authHeader?: boolean;
}

export interface ModelCatalog {
	readonly models: readonly PiModel[];
	readonly builtInProviders: ReadonlySet<string>;
	readonly requestConfigs: ReadonlyMap<string, ProviderRequestConfig>;
	/** Request headers of one model from models.json, keyed by `provider/id`. */
	readonly modelHeaders: ReadonlyMap<string, Readonly<Record<string, string>>>;
	readonly modelsJsonProblem?: string;
	/** Where models.json is (or would be), for messages; undefined for a catalog built without an agent dir. */
	readonly modelsJsonPath?: string;
}

function buildModelCatalog(piAi: PiAi, modelsJson: ModelsJson, auth: AuthFile): ModelCatalog {
	const builtInProviders = new Set<string>(piAi.getProviders());
	const providers = Object.entries(modelsJson.providers);
	const requestConfigs = new Map<string, ProviderRequestConfig>();
	const modelHeaders = new Map<string, Readonly<Record<string, string>>>();
	for (const [name, config] of providers) {
		if (config.apiKey || config.headers || config.authHeader) {
			requestConfigs.set(name, { apiKey: config.apiKey, headers: config.headers, authHeader: config.authHeader });
		}
		for (const [id, override] of Object.entries(config.modelOverrides ?? {})) {
			if (override.headers) {
				modelHeaders.set(`${name}/${id}`, override.headers);
			}
		}
		for (const definition of config.models ?? []) {
			if (definition.headers) {
				modelHeaders.set(`${name}/${definition.id}`, definition.headers);
			}
		}
	}
	let models: PiModel[] = [];
	for (const provider of builtInProviders) {
		const config = modelsJson.providers[provider];
		for (const builtIn of piAi.getModels(provider as Parameters<PiAi['getModels']>[0]) as PiModel[]) {
			models.push(overrideBuiltIn(builtIn, config));
		}
	}
	for (const [name, config] of providers) {
		const defaults = builtInDefaults(piAi, builtInProviders, name);
		for (const definition of config.models ?? []) {
			const custom = customModel(name, config, definition, defaults);
			if (!custom) {
				continue;
			}
			const existing = models.findIndex((model) => model.provider === name && model.id === definition.id);
			if (existing >= 0) {
				models[existing] = custom;
			} else {
				models.push(custom);
			}
		}
	}
	for (const [provider, credential] of auth.credentials) {
		const oauthProvider = credential.type === 'oauth' ? piAi.getOAuthProvider(provider) : undefined;
		if (credential.type === 'oauth' && oauthProvider?.modifyModels) {
			models = oauthProvider.modifyModels(models, credential);
		}
	}
	return { models, builtInProviders, requestConfigs, modelHeaders, modelsJsonProblem: modelsJson.problem };
}

export function findModel(catalog: ModelCatalog, provider: string, id: string): PiModel | undefined {
	return catalog.models.find((model) => model.provider === provider && model.id === id);
}

function overrideBuiltIn(model: PiModel, config: ProviderConfig | undefined): PiModel {
	if (!config) {
		return model;
	}
	let result = model;
	if (config.baseUrl || config.compat) {
		result = { ...result, baseUrl: config.baseUrl ?? result.baseUrl, compat: mergeCompat(result.compat, config.compat) };
	}
	const override = config.modelOverrides?.[model.id];
	return override ? applyModelOverride(result, override) : result;
}

function applyModelOverride(model: PiModel, override: ModelOverride): PiModel {
	return {
		...model,
		name: override.name ?? model.name,
		reasoning: override.reasoning ?? model.reasoning,
		thinkingLevelMap: override.thinkingLevelMap ? { ...model.thinkingLevelMap, ...override.thinkingLevelMap } : model.thinkingLevelMap,
		input: override.input ? [...override.input] : model.input,
		contextWindow: override.contextWindow ?? model.contextWindow,
		maxTokens: override.maxTokens ?? model.maxTokens,
		cost: override.cost ? { ...model.cost, ...definedOnly(override.cost) } : model.cost,
		compat: mergeCompat(model.compat, override.compat),
	};
}

function builtInDefaults(piAi: PiAi, builtIns: ReadonlySet<string>, provider: string): { api: string; baseUrl: string } | undefined {
	if (!builtIns.has(provider)) {
		return undefined;
	}
	const first = piAi.getModels(provider as Parameters<PiAi['getModels']>[0])[0];
	return first ? { api: first.api, baseUrl: first.baseUrl } : undefined;
}

/** A models.json model with Pi's defaults (`customModelFields`). */
function customModel(provider: string, config: ProviderConfig, definition: ModelDefinition, defaults: { api: string; baseUrl: string } | undefined): PiModel | undefined {
	const api = definition.api ?? config.api ?? defaults?.api;
	const baseUrl = definition.baseUrl ?? config.baseUrl ?? defaults?.baseUrl;
	if (!api || !baseUrl) {
		return undefined;
	}
	return { ...customModelFields(provider, definition, api, baseUrl), compat: mergeCompat(config.compat, definition.compat) };
}

type Compat = PiModel['compat'];

/** Shallow merge, except the two routing objects of OpenAI-compatible compat, which merge one level deeper. */
function mergeCompat(base: Compat | JsonObject | undefined, override: JsonObject | undefined): Compat {
	if (!override) {
		return base;
	}
	const merged: JsonObject = { ...base, ...override };
	for (const key of ['openRouterRouting', 'vercelGatewayRouting']) {
		const fromBase = isPlainObject(base) ? base[key] : undefined;
		if (isPlainObject(fromBase) || isPlainObject(override[key])) {
			merged[key] = { ...(isPlainObject(fromBase) ? fromBase : {}), ...(isPlainObject(override[key]) ? override[key] : {}) };
		}
	}
	return merged;
}

function definedOnly<T extends object>(value: T): Partial<T> {
	return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>;
}

/** Reads models.json and builds the catalog; `auth` feeds the OAuth providers' model adjustments. */
export async function loadModelCatalog(piAi: PiAi, agentDir: string, auth: AuthFile): Promise<ModelCatalog> {
	const modelsJson = await readModelsJson(agentDir, new Set<string>(piAi.getProviders()));
	return { ...buildModelCatalog(piAi, modelsJson, auth), modelsJsonPath: modelsJsonPath(agentDir) };
}
