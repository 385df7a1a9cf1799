/**
 * Chooses the summarizer's model. `summarizerModel` is `default` (the session's current model,
 * passed in by the caller) or `provider/id`, optionally ending in `:thinking` (Pi's model pattern
 * syntax: the last `:` starts a thinking level only if what follows is one, so ids such as
 * `qwen2.5-coder:7b` survive). Also lists the models that have credentials, for a quick pick.
 */
import type { SummarizerThinking } from '../../engine/config';
import { SummarizerError } from '../../engine/ports';
import type { CredentialSource, LibraryCatalog, LibraryModel, ModelLibrary } from './library/modelLibrary';
import { renamedProviderNote } from './library/renamedProviders';

/** What choosing a model reads of a catalog. */
export type ModelLookup = Pick<LibraryCatalog, 'models' | 'find' | 'modelsJsonPath' | 'modelsJsonProblem'>;

export interface ModelRef {
	readonly provider: string;
	readonly modelId: string;
}

export type ThinkingLevelName = Exclude<SummarizerThinking, 'default'>;

export interface ModelSpec extends ModelRef {
	/** The id exactly as written, thinking suffix included (tried first: ids may contain `:`). */
	readonly rawModelId: string;
	readonly thinking?: ThinkingLevelName;
}

export interface ResolvedModel {
	readonly model: LibraryModel;
	/** From a `:thinking` suffix of the spec, if any. */
	readonly thinking?: ThinkingLevelName;
}

export interface ModelChoice {
	/** `provider/id`, the value to store in `summarizerModel`. */
	readonly ref: string;
	readonly name: string;
	readonly reasoning: boolean;
	readonly credentialSource: CredentialSource;
}

const THINKING_LEVELS: readonly ThinkingLevelName[] = ['off', 'minimal', 'low', 'medium', 'high', 'xhigh'];

function isThinkingLevel(value: string): value is ThinkingLevelName {
	return (THINKING_LEVELS as readonly string[]).includes(value);
}

/** Parses `provider/id[:thinking]`; undefined when there is no provider or no id. */
export function parseModelSpec(spec: string): ModelSpec | undefined {
	const trimmed = spec.trim();
	const slash = trimmed.indexOf('/');
	const provider = trimmed.slice(0, slash).trim();
	const rawModelId = trimmed.slice(slash + 1).trim();
	if (slash <= 0 || !provider || !rawModelId) {
		return undefined;
	}
	const colon = rawModelId.lastIndexOf(':');
	const suffix = rawModelId.slice(colon + 1);
	if (colon > 0 && isThinkingLevel(suffix)) {
		return { provider, modelId: rawModelId.slice(0, colon), rawModelId, thinking: suffix };
	}
	return { provider, modelId: rawModelId, rawModelId };
}

export function formatModelRef(ref: ModelRef): string {
	return `${ref.provider}/${ref.modelId}`;
}

/** Resolves `summarizerModel`; throws a `model` SummarizerError naming what could not be found. */
export function resolveSummarizerModel(catalog: ModelLookup, summarizerModel: string, sessionModel: ModelRef | undefined): ResolvedModel {
	if (summarizerModel.trim() === '' || summarizerModel.trim() === 'default') {
		if (!sessionModel) {
			throw modelError('summarizerModel is "default" (the session\'s model), but the session has not chosen a model yet. Set contextPrune.summarizerModel to "provider/model-id".');
		}
		return { model: findOrExplain(catalog, sessionModel, 'the session\'s model') };
	}
	const spec = parseModelSpec(summarizerModel);
	if (!spec) {
		throw modelError(`summarizerModel "${summarizerModel}" is not "default" or "provider/model-id".`);
	}
	const exact = catalog.find(spec.provider, spec.rawModelId);
	if (exact) {
		return { model: exact };
	}
	return { model: findOrExplain(catalog, spec, 'summarizerModel'), thinking: spec.thinking };
}

/** Reads the agent dir and lists the models that have credentials (for the model quick pick). */
export async function listUsableModels(library: ModelLibrary, agentDir: string): Promise<ModelChoice[]> {
	return listModelsWithCredentials(await library.openCatalog(agentDir, 'probe'));
}

/** Models whose provider has a credential configured (no command is run, no token checked). */
async function listModelsWithCredentials(catalog: Pick<LibraryCatalog, 'models' | 'credentialSource'>): Promise<ModelChoice[]> {
	const sources = new Map<string, CredentialSource | undefined>();
	const choices: ModelChoice[] = [];
	for (const model of catalog.models) {
		if (!sources.has(model.provider)) {
			sources.set(model.provider, await catalog.credentialSource(model.provider));
		}
		const source = sources.get(model.provider);
		if (source) {
			choices.push({ ref: `${model.provider}/${model.id}`, name: model.name, reasoning: model.reasoning, credentialSource: source });
		}
	}
	return choices;
}

function findOrExplain(catalog: ModelLookup, ref: ModelRef, what: string): LibraryModel {
	const model = catalog.find(ref.provider, ref.modelId);
	if (model) {
		return model;
	}
	const note = catalog.modelsJsonProblem ? ` Note: ${catalog.modelsJsonProblem}.` : '';
	const providers = new Set(catalog.models.map((candidate) => candidate.provider));
	if (!providers.has(ref.provider)) {
		const renamed = renamedProviderNote(ref.provider, providers);
		throw modelError(
			`Unknown provider "${ref.provider}" in ${what} "${formatModelRef(ref)}": ${renamed ? `${renamed}.` : 'it is not built into pi-ai and models.json does not define models for it.'} ` +
			`Define it in ${catalog.modelsJsonPath ?? 'models.json'}, or set contextPrune.summarizerModel to a model Pi knows.${note}`,
		);
	}
	throw modelError(
		`Unknown model "${formatModelRef(ref)}" (${what}): provider "${ref.provider}" has no model "${ref.modelId}". ` +
		`Check the id (Pi's /model lists them), add it to ${catalog.modelsJsonPath ?? 'models.json'}, or set contextPrune.summarizerModel to another model.${note}`,
	);
}

function modelError(message: string): SummarizerError {
	return new SummarizerError('model', message);
}
