/**
 * Reads and checks Pi's `<agentDir>/models.json` (custom providers and models, per-provider and
 * per-model overrides of built-ins). Field names and rules are Pi 0.73.1's (`model-registry.ts`), and Pi 1.x's
 * (`ModelsJsonRules`): like Pi, a file that fails the checks contributes nothing, and the problem is reported.
 */
import { join } from 'node:path';
import { readJsonObjectFile, type JsonObject } from './jsonFile';
import { isPlainObject } from '../../base/plainObject';

export interface ModelCost {
	readonly input: number;
	readonly output: number;
	readonly cacheRead: number;
	readonly cacheWrite: number;
}

interface ModelFields {
	readonly name?: string;
	readonly reasoning?: boolean;
	readonly thinkingLevelMap?: Readonly<Record<string, string | null>>;
	readonly input?: readonly ('text' | 'image')[];
	readonly contextWindow?: number;
	readonly maxTokens?: number;
	readonly headers?: Readonly<Record<string, string>>;
	readonly compat?: JsonObject;
}

export interface ModelDefinition extends ModelFields {
	readonly id: string;
	readonly api?: string;
	readonly baseUrl?: string;
	readonly cost?: ModelCost;
}

export interface ModelOverride extends ModelFields {
	readonly cost?: Partial<ModelCost>;
}

export interface ProviderConfig {
	readonly name?: string;
	readonly baseUrl?: string;
	readonly apiKey?: string;
	readonly api?: string;
	readonly headers?: Readonly<Record<string, string>>;
	readonly compat?: JsonObject;
	readonly authHeader?: boolean;
	readonly models?: readonly ModelDefinition[];
	readonly modelOverrides?: Readonly<Record<string, ModelOverride>>;
}

export interface ModelsJson {
	readonly providers: Readonly<Record<string, ProviderConfig>>;
	/** Set when the file exists but is unusable; `providers` is then empty. */
	readonly problem?: string;
}

const EMPTY_MODELS_JSON: ModelsJson = { providers: {} };

const ZERO_COST: ModelCost = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };

/**
 * A models.json model with Pi's defaults (0.73 and 1.x alike): name = id, no reasoning, text only, 128k
 * window, 16k output, free; `api` and `baseUrl` as the caller found them (model, provider, a built-in).
 */
export function customModelFields(provider: string, definition: ModelDefinition, api: string, baseUrl: string) {
	return {
		id: definition.id,
		name: definition.name ?? definition.id,
		api,
		provider,
		baseUrl,
		reasoning: definition.reasoning ?? false,
		thinkingLevelMap: definition.thinkingLevelMap,
		input: definition.input ? [...definition.input] : ['text' as const],
		cost: definition.cost ? { ...definition.cost } : { ...ZERO_COST },
		contextWindow: definition.contextWindow ?? 128000,
		maxTokens: definition.maxTokens ?? 16384,
		headers: undefined,
	};
}

export function modelsJsonPath(agentDir: string): string {
	return join(agentDir, 'models.json');
}

/**
 * Which checks: Pi 0.73 refuses the whole file for a provider entry that sets nothing or a custom provider
 * without baseUrl/apiKey/api; Pi 1.x checks only the shape here and refuses such an entry alone, when it
 * composes its providers (`library/modelsJsonProviders.ts`).
 */
export type ModelsJsonRules = 'pi-0.73' | 'pi-1';

export async function readModelsJson(agentDir: string, builtInProviders: ReadonlySet<string>, rules: ModelsJsonRules = 'pi-0.73'): Promise<ModelsJson> {
	const path = modelsJsonPath(agentDir);
	const read = await readJsonObjectFile(path, { allowComments: true });
	if (read.kind === 'missing') {
		return EMPTY_MODELS_JSON;
	}
	if (read.kind === 'problem') {
		return { providers: {}, problem: read.problem };
	}
	const problems = checkModelsJson(read.value, builtInProviders, rules);
	if (problems.length > 0) {
		return { providers: {}, problem: `${path} is invalid: ${problems.slice(0, 5).join('; ')}` };
	}
	return { providers: read.value.providers as ModelsJson['providers'] };
}

/** Returns human-readable problems; an empty list means the object has the shape of `ModelsJson`. */
function checkModelsJson(value: JsonObject, builtInProviders: ReadonlySet<string>, rules: ModelsJsonRules = 'pi-0.73'): string[] {
	const problems: string[] = [];
	if (!isPlainObject(value.providers)) {
		return ['"providers" must be an object'];
	}
	for (const [name, provider] of Object.entries(value.providers)) {
		if (!isPlainObject(provider)) {
			problems.push(`provider ${name} must be an object`);
			continue;
		}
		checkProvider(name, provider, builtInProviders.has(name), problems, rules);
	}
	return problems;
}

function checkProvider(name: string, provider: JsonObject, builtIn: boolean, problems: string[], rules: ModelsJsonRules): void {
	const at = `provider ${name}`;
	checkStrings(provider, ['name', 'baseUrl', 'apiKey', 'api'], at, problems);
	checkOptional(provider, 'authHeader', 'boolean', at, problems);
	checkStringRecord(provider.headers, `${at} headers`, problems);
	checkOptional(provider, 'compat', 'object', at, problems);
	const models = provider.models;
	if (models !== undefined && !Array.isArray(models)) {
		problems.push(`${at}: "models" must be an array`);
		return;
	}
	const overrides = provider.modelOverrides;
	if (overrides !== undefined && !isPlainObject(overrides)) {
		problems.push(`${at}: "modelOverrides" must be an object`);
		return;
	}
	for (const [id, override] of Object.entries(overrides ?? {})) {
		checkModelFields(override, `${at} modelOverrides.${id}`, problems);
	}
	const definitions: unknown[] = models ?? [];
	const pi073 = rules === 'pi-0.73';
	if (pi073 && definitions.length === 0) {
		const hasOverrides = Object.keys(overrides ?? {}).length > 0;
		if (!provider.baseUrl && !provider.headers && !provider.compat && !hasOverrides) {
			problems.push(`${at}: must specify "baseUrl", "headers", "compat", "modelOverrides", or "models"`);
		}
		return;
	}
	if (pi073 && !builtIn && !provider.baseUrl) {
		problems.push(`${at}: "baseUrl" is required when defining custom models`);
	}
	if (pi073 && !builtIn && !provider.apiKey) {
		problems.push(`${at}: "apiKey" is required when defining custom models`);
	}
	for (const [index, definition] of definitions.entries()) {
		const where = `${at} models[${index}]`;
		if (!isPlainObject(definition) || typeof definition.id !== 'string' || definition.id === '') {
			problems.push(`${where}: "id" must be a non-empty string`);
			continue;
		}
		checkModelFields(definition, `${at} model ${definition.id}`, problems);
		checkStrings(definition, ['api', 'baseUrl'], where, problems);
		if (pi073 && !builtIn && !provider.api && !definition.api) {
			problems.push(`${at}, model ${definition.id}: no "api" specified. Set it on the provider or the model`);
		}
	}
}

function checkModelFields(value: unknown, at: string, problems: string[]): void {
	if (!isPlainObject(value)) {
		problems.push(`${at} must be an object`);
		return;
	}
	checkStrings(value, ['name'], at, problems);
	checkOptional(value, 'reasoning', 'boolean', at, problems);
	checkOptional(value, 'thinkingLevelMap', 'object', at, problems);
	checkOptional(value, 'compat', 'object', at, problems);
	checkOptional(value, 'cost', 'object', at, problems);
	checkStringRecord(value.headers, `${at} headers`, problems);
	for (const field of ['contextWindow', 'maxTokens']) {
		const number = value[field];
		if (number !== undefined && (typeof number !== 'number' || !(number > 0))) {
			problems.push(`${at}: "${field}" must be a positive number`);
		}
	}
	const input = value.input;
	if (input !== undefined && (!Array.isArray(input) || !input.every((kind) => kind === 'text' || kind === 'image'))) {
		problems.push(`${at}: "input" must list "text" and/or "image"`);
	}
}

function checkStrings(value: JsonObject, fields: readonly string[], at: string, problems: string[]): void {
	for (const field of fields) {
		checkOptional(value, field, 'string', at, problems);
	}
}

function checkOptional(value: JsonObject, field: string, type: 'string' | 'boolean' | 'object', at: string, problems: string[]): void {
	const fieldValue = value[field];
	if (fieldValue === undefined) {
		return;
	}
	const ok = type === 'object' ? isPlainObject(fieldValue) : typeof fieldValue === type && fieldValue !== '';
	if (!ok) {
		problems.push(`${at}: "${field}" must be ${type === 'object' ? 'an object' : `a non-empty ${type}`}`);
	}
}

function checkStringRecord(value: unknown, at: string, problems: string[]): void {
	if (value !== undefined && (!isPlainObject(value) || !Object.values(value).every((entry) => typeof entry === 'string'))) {
		problems.push(`${at} must map names to strings`);
	}
}
