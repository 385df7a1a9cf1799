/**
 * models.json laid over pi-ai's built-in providers as Pi 1.x lays it (pi-ai 0.8x and later, where a provider
 * is an object with its models, its auth methods and its streaming): a provider models.json names gets the
 * `baseUrl` and `compat` of its entry on every built-in model, its `models` added (or replacing the built-in
 * of the same id, with defaults from a built-in model of that id or api), then `modelOverrides` on top; its
 * `apiKey` (resolved as `configTemplate.ts` says) is used when auth.json has no credential for it, its
 * `headers` and `authHeader` go with every request. A provider that only models.json defines streams
 * through pi-ai's implementation of its `api`. An entry Pi would refuse leaves the built-in provider as it
 * is (or no provider), and the reason is reported.
 */
import { isRecord, type JsonObject } from '../jsonFile';
import { customModelFields, type ModelDefinition, type ModelOverride, type ProviderConfig } from '../modelsJson';
import { requireTemplateValue, templateVariables, type TemplateResolution } from './configTemplate';

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

export interface AuthResolution {
	readonly auth: { readonly apiKey?: string; readonly headers?: Record<string, string | null>; readonly baseUrl?: string };
	readonly env?: Record<string, string>;
	readonly source?: string;
}

interface ApiKeyInput {
	readonly ctx: unknown;
	readonly credential?: { readonly type: 'api_key'; readonly key?: string; readonly env?: Readonly<Record<string, string>> };
	readonly signal: AbortSignal;
}

export interface ApiKeyMethod {
	readonly name: string;
	check?(input: ApiKeyInput): Promise<{ readonly type: string; readonly source?: string } | undefined>;
	resolve(input: ApiKeyInput): Promise<AuthResolution | undefined>;
}

export interface OAuthMethod {
	readonly name: string;
	toAuth(credential: JsonObject): Promise<AuthResolution['auth']>;
	[field: string]: unknown;
}

type Stream = (model: CollectionModel, context: unknown, options?: unknown) => unknown;

export interface CollectionProvider {
	readonly id: string;
	readonly name: string;
	readonly baseUrl?: string;
	readonly auth: { readonly apiKey?: ApiKeyMethod; readonly oauth?: OAuthMethod };
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
			problems.push(`provider "${id}" in ${where} is not used: ${error instanceof Error ? error.message : String(error)}`);
			if (base) {
				providers.push(base);
			}
		}
	}
	return { providers, problems };
}

/** The summarizer's command cache and timeout (read when a value resolves), and models.json's path. */
type Resolution = TemplateResolution & { readonly where: string };

function composeProvider(id: string, base: CollectionProvider | undefined, config: ProviderConfig, apis: ApiImplementations, resolution: Resolution): CollectionProvider {
	if ((config as JsonObject).oauth !== undefined) {
		throw new Error('"oauth" (a Radius gateway) is not supported by Pi Condense');
	}
	const models = composeModels(id, base?.getModels() ?? [], config);
	const apiKey = composeApiKey(id, base, config, resolution);
	const oauth = composeOAuth(id, base, config, resolution);
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
	const merged = (key: string): JsonObject | undefined => (isRecord(fields[key]) ? { ...(isRecord(model[key]) ? model[key] : {}), ...fields[key] } : model[key] as JsonObject | undefined);
	return {
		...model,
		name: override.name ?? model.name,
		reasoning: override.reasoning ?? model.reasoning,
		thinkingLevelMap: override.thinkingLevelMap ? { ...(isRecord(model.thinkingLevelMap) ? model.thinkingLevelMap : {}), ...override.thinkingLevelMap } : model.thinkingLevelMap,
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

function composeApiKey(id: string, base: CollectionProvider | undefined, config: ProviderConfig, resolution: Resolution): ApiKeyMethod | undefined {
	const inherited = base?.auth.apiKey;
	const rawKey = config.apiKey;
	if (!inherited && rawKey === undefined && base?.auth.oauth) {
		return undefined;
	}
	return {
		name: inherited?.name ?? 'API key',
		check: async (input) => {
			if (input.credential || rawKey === undefined) {
				if (inherited?.check) {
					return inherited.check(input);
				}
				if (input.credential?.key) {
					return { type: 'api_key', source: 'stored credential' };
				}
				const resolved = await inherited?.resolve(input);
				return resolved ? { type: 'api_key', source: resolved.source } : undefined;
			}
			const unset = templateVariables(rawKey).some((name) => !process.env[name]);
			return unset ? undefined : { type: 'api_key', source: 'configured API key' };
		},
		resolve: async (input) => {
			let result: AuthResolution | undefined;
			if (input.credential) {
				result = inherited ? await inherited.resolve(input) : input.credential.key ? { auth: { apiKey: input.credential.key }, env: input.credential.env ? { ...input.credential.env } : undefined, source: 'stored credential' } : undefined;
			} else if (rawKey !== undefined) {
				const key = await requireTemplateValue(rawKey, { ...resolution, description: `"apiKey" of provider "${id}" in ${resolution.where}` });
				result = inherited ? await inherited.resolve({ ...input, credential: { type: 'api_key', key } }) : { auth: { apiKey: key }, source: 'configured API key' };
			} else {
				result = await inherited?.resolve(input);
			}
			if (!result) {
				return undefined;
			}
			const headers = await resolveHeaders(config.headers, `provider "${id}" in ${resolution.where}`, { ...resolution, env: { ...input.credential?.env, ...result.env } });
			return { ...result, auth: withConfiguredAuth(result.auth, headers, config.authHeader === true) };
		},
	};
}

function composeOAuth(id: string, base: CollectionProvider | undefined, config: ProviderConfig, resolution: Resolution): OAuthMethod | undefined {
	const oauth = base?.auth.oauth;
	if (!oauth) {
		return undefined;
	}
	return {
		...oauth,
		toAuth: async (credential) => {
			const env = isRecord(credential.env) ? credential.env as Record<string, string> : undefined;
			const headers = await resolveHeaders(config.headers, `provider "${id}" in ${resolution.where}`, { ...resolution, env });
			return withConfiguredAuth(await oauth.toAuth(credential), headers, config.authHeader === true);
		},
	};
}

/** `owner`: whose headers, for messages (`provider "x" in …/models.json`). */
async function resolveHeaders(headers: Readonly<Record<string, string>> | undefined, owner: string, options: TemplateResolution & { readonly env?: Readonly<Record<string, string>> }): Promise<Record<string, string> | undefined> {
	if (!headers) {
		return undefined;
	}
	const resolved: Record<string, string> = {};
	for (const [name, value] of Object.entries(headers)) {
		resolved[name] = await requireTemplateValue(value, { ...options, description: `header "${name}" of ${owner}` });
	}
	return Object.keys(resolved).length > 0 ? resolved : undefined;
}

function withConfiguredAuth(auth: AuthResolution['auth'], headers: Record<string, string> | undefined, authHeader: boolean): AuthResolution['auth'] {
	let merged = auth.headers || headers ? { ...auth.headers, ...headers } : undefined;
	if (authHeader) {
		if (!auth.apiKey) {
			throw new Error('"authHeader" needs an API key, and none was found');
		}
		merged = { ...merged, Authorization: `Bearer ${auth.apiKey}` };
	}
	return { ...auth, headers: merged };
}

/** Shallow merge, except the routing and chat-template objects of compat, which merge one level deeper. */
function mergeCompat(base: unknown, override: JsonObject | undefined): JsonObject | undefined {
	if (!override) {
		return isRecord(base) ? base : undefined;
	}
	const from = isRecord(base) ? base : {};
	const merged: JsonObject = { ...from, ...override };
	for (const key of NESTED_COMPAT) {
		if (isRecord(from[key]) || isRecord(override[key])) {
			merged[key] = { ...(isRecord(from[key]) ? from[key] : {}), ...(isRecord(override[key]) ? override[key] : {}) };
		}
	}
	return merged;
}

function mergeByLevel(base: unknown, override: unknown): unknown {
	if (!isRecord(override)) {
		return base;
	}
	const merged: JsonObject = { ...(isRecord(base) ? base : {}) };
	for (const [level, params] of Object.entries(override)) {
		if (isRecord(params)) {
			merged[level] = { ...(isRecord(merged[level]) ? merged[level] : {}), ...params };
		}
	}
	return merged;
}

function definedOnly<T extends object>(value: T): Partial<T> {
	return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>;
}
