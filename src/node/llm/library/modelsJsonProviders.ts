/**
 * models.json laid over pi-ai's built-in providers as Pi 1.x lays it (pi-ai 0.8x and later, where a provider
 * is an object with its models, its auth methods and its streaming): a provider models.json names gets the
 * `baseUrl` and `compat` of its entry on every built-in model, its `models` added (or replacing the built-in
 * of the same id, with defaults from a built-in model of that id or api), then `modelOverrides` on top; its
 * `apiKey`, `headers` and `authHeader` join its auth (`modelsJsonAuth.ts`). A provider that only models.json
 * defines streams through pi-ai's implementation of its `api`. An entry Pi would refuse leaves the built-in provider as it
 * is (or no provider), and the reason is reported.
 */
import { type JsonObject } from '../jsonFile';
import { customModelFields, type ModelDefinition, type ModelOverride, type ProviderConfig } from '../modelsJson';
import type { TemplateResolution } from './configTemplate';
import { composeApiKey, composeOAuth, type ProviderAuthMethods, type Resolution } from './modelsJsonAuth';
import { isPlainObject } from '../../../base/plainObject';
import { errorMessage } from '../../../base/errorMessage';

/** What is read of a pi-ai model; everything else is carried along untouched. */
export interface CollectionModel extends JsonObject {
	readonly id: string;
	readonly name: string;
	readonly api: string;
	readonly provider: string;
	readonly baseUrl: string;
	readonly type?: string;
	readonly cost: JsonObject & { readonly input: number; readonly output: number; readonly cacheRead: number; readonly cacheWrite: number };
}

type Stream = (model: CollectionModel, context: unknown, options?: unknown) => unknown;

export interface CollectionProvider {
	readonly id: string;
	readonly name: string;
	readonly baseUrl?: string;
	readonly auth: ProviderAuthMethods;
	getModels(): readonly CollectionModel[];
	readonly stream: Stream;
	readonly streamSimple: Stream;
	[field: string]: unknown;
}

/** pi-ai's implementation of one api (`getApiProvider` of its `compat` entry). */
export type ApiImplementations = (api: string) => { readonly stream: Stream; readonly streamSimple: Stream } | undefined;

export interface ComposedProviders {
	readonly providers: readonly CollectionProvider[];
	readonly problems: readonly string[];
}

const NESTED_COMPAT = ['openRouterRouting', 'vercelGatewayRouting', 'chatTemplateKwargs', 'chatTemplateArgs'];

/** `where`: models.json's path, for messages. */
export function composeProviders(builtIns: readonly CollectionProvider[], configs: Readonly<Record<string, ProviderConfig>>, apis: ApiImplementations, resolution: TemplateResolution, where: string): ComposedProviders {
	const byId = new Map(builtIns.map((provider) => [provider.id, provider]));
	const problems: string[] = [];
	const providers: CollectionProvider[] = [];
	for (const id of new Set([...byId.keys(), ...Object.keys(configs)])) {
		const base = byId.get(id);
		const config = configs[id];
		if (!config) {
			providers.push(base as CollectionProvider);
			continue;
		}
		try {
			providers.push(composeProvider(id, base, config, apis, { ...resolution, where }));
		} catch (error) {
			problems.push(`provider "${id}" in ${where} is not used: ${errorMessage(error)}`);
			if (base) {
				providers.push(base);
			}
		}
	}
	return { providers, problems };
}

function composeProvider(id: string, base: CollectionProvider | undefined, config: ProviderConfig, apis: ApiImplementations, resolution: Resolution): CollectionProvider {
	if ((config as JsonObject).oauth !== undefined) {
		throw new Error('"oauth" (a Radius gateway) is not supported by Pi Condense');
	}
	const models = composeModels(id, base?.getModels() ?? [], config);
	const apiKey = composeApiKey(id, base?.auth, config, resolution);
	const oauth = composeOAuth(id, base?.auth, config, resolution);
	if (!apiKey && !oauth) {
		throw new Error('no authentication method configured');
	}
	const streamWith = (simple: boolean): Stream => (model, context, options) => {
		if (base?.getModels().some((entry) => entry.api === model.api)) {
			return simple ? base.streamSimple(model, context, options) : base.stream(model, context, options);
		}
		const implementation = apis(model.api);
		if (!implementation) {
			throw new Error(`pi-ai has no implementation of the api "${model.api}"`);
		}
		return simple ? implementation.streamSimple(model, context, options) : implementation.stream(model, context, options);
	};
	return {
		...(base ?? {}),
		id,
		name: config.name ?? base?.name ?? id,
		baseUrl: config.baseUrl ?? base?.baseUrl,
		auth: { ...(apiKey ? { apiKey } : {}), ...(oauth ? { oauth } : {}) },
		getModels: () => models,
		getAllModels: () => models,
		stream: streamWith(false),
		streamSimple: streamWith(true),
	};
}

function composeModels(id: string, baseModels: readonly CollectionModel[], config: ProviderConfig): CollectionModel[] {
	const hasOverrides = Object.keys(config.modelOverrides ?? {}).length > 0;
	const anything = config.models?.length || config.baseUrl || config.headers || config.compat || hasOverrides || config.apiKey || config.authHeader !== undefined;
	if (!anything) {
		throw new Error('it must set "baseUrl", "headers", "compat", "modelOverrides", "apiKey" or "models"');
	}
	const models = baseModels.map((model) => (isChat(model)
		? { ...model, baseUrl: config.baseUrl ?? model.baseUrl, compat: mergeCompat(model.compat, config.compat) }
		: { ...model, baseUrl: config.baseUrl ?? model.baseUrl }));
	for (const definition of config.models ?? []) {
		const defaults = baseModels.find((model) => model.id === definition.id)
			?? baseModels.find((model) => model.api === (definition.api ?? config.api))
			?? baseModels.find((model) => model.api === 'openai-completions')
			?? baseModels[0];
		const custom = customModel(id, definition, config, defaults);
		const existing = models.findIndex((model) => model.id === definition.id && isChat(model));
		if (existing >= 0) {
			models[existing] = custom;
		} else {
			models.push(custom);
		}
	}
	return models.map((model) => {
		const override = config.modelOverrides?.[model.id];
		return override && isChat(model) ? applyOverride(model, override) : model;
	});
}

/** Chat models (image and classifier models have a `type`): models.json's models and overrides are chat models. */
function isChat(model: CollectionModel): boolean {
	return (model.type ?? 'chat') === 'chat';
}

function customModel(provider: string, definition: ModelDefinition, config: ProviderConfig, defaults: CollectionModel | undefined): CollectionModel {
	const fields = definition as ModelDefinition & JsonObject;
	const api = definition.api ?? config.api ?? defaults?.api;
	if (!api) {
		throw new Error(`model ${definition.id} has no "api": set it on the provider or the model`);
	}
	const baseUrl = definition.baseUrl ?? config.baseUrl ?? defaults?.baseUrl;
	if (!baseUrl) {
		throw new Error(`"baseUrl" is required when defining custom models (model ${definition.id})`);
	}
	return {
		...customModelFields(provider, definition, api, baseUrl),
		// The fields Pi 1.x added to a model.
		inputLimits: fields.inputLimits,
		promptCache: fields.promptCache,
		samplingParams: fields.samplingParams,
		samplingParamsByThinkingLevel: fields.samplingParamsByThinkingLevel,
		compat: mergeCompat(config.compat, definition.compat),
	};
}

function applyOverride(model: CollectionModel, override: ModelOverride): CollectionModel {
	const fields = override as ModelOverride & JsonObject;
	const merged = (key: string): JsonObject | undefined => (isPlainObject(fields[key]) ? { ...(isPlainObject(model[key]) ? model[key] : {}), ...fields[key] } : model[key] as JsonObject | undefined);
	return {
		...model,
		name: override.name ?? model.name,
		reasoning: override.reasoning ?? model.reasoning,
		thinkingLevelMap: override.thinkingLevelMap ? { ...(isPlainObject(model.thinkingLevelMap) ? model.thinkingLevelMap : {}), ...override.thinkingLevelMap } : model.thinkingLevelMap,
		input: override.input ? [...override.input] : model.input,
		inputLimits: merged('inputLimits'),
		cost: override.cost ? { ...model.cost, ...definedOnly(override.cost) } : model.cost,
		promptCache: merged('promptCache'),
		contextWindow: override.contextWindow ?? model.contextWindow,
		maxTokens: override.maxTokens ?? model.maxTokens,
		samplingParams: merged('samplingParams'),
		samplingParamsByThinkingLevel: mergeByLevel(model.samplingParamsByThinkingLevel, fields.samplingParamsByThinkingLevel),
		compat: mergeCompat(model.compat, override.compat),
	};
}

/** Shallow merge, except the routing and chat-template objects of compat, which merge one level deeper. */
function mergeCompat(base: unknown, override: JsonObject | undefined): JsonObject | undefined {
	if (!override) {
		return isPlainObject(base) ? base : undefined;
	}
	const from = isPlainObject(base) ? base : {};
	const merged: JsonObject = { ...from, ...override };
	for (const key of NESTED_COMPAT) {
		if (isPlainObject(from[key]) || isPlainObject(override[key])) {
			merged[key] = { ...(isPlainObject(from[key]) ? from[key] : {}), ...(isPlainObject(override[key]) ? override[key] : {}) };
		}
	}
	return merged;
}

function mergeByLevel(base: unknown, override: unknown): unknown {
	if (!isPlainObject(override)) {
		return base;
	}
	const merged: JsonObject = { ...(isPlainObject(base) ? base : {}) };
	for (const [level, params] of Object.entries(override)) {
		if (isPlainObject(params)) {
			merged[level] = { ...(isPlainObject(merged[level]) ? merged[level] : {}), ...params };
		}
	}
	return merged;
}

function definedOnly<T extends object>(value: T): Partial<T> {
	return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>;
}
