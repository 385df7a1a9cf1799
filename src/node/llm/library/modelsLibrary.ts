/**
 * pi-ai 0.8x and 1.x as a `ModelLibrary`: its `createModels` collection holding its built-in providers with
 * the catalogs Pi keeps (`storedCatalogs.ts`) and models.json (`modelsJsonProviders.ts`) laid over them and auth.json as its credential store
 * (`authJsonStore.ts`), Pi 1.x's rules. Credentials resolve as that pi-ai resolves them: a stored credential
 * owns its provider, else the provider's own ambient sources (its environment variables, cloud profiles),
 * else models.json's `apiKey`; an OAuth login about to expire is refreshed under Pi's lock on auth.json,
 * as Pi refreshes it.
 */
import type { AssistantMessageEventStream, ModelThinkingLevel } from '@earendil-works/pi-ai';
import { SummarizerError } from '../../../engine/ports';
import { errorMessage } from '../../../base/errorMessage';
import { authFilePath } from '../authFile';
import { ConfigValueError } from '../configValue';
import { credentialsError, describeMissingKey } from '../credentials';
import { modelsJsonPath, readModelsJson, type ModelsJson } from '../modelsJson';
import { redactSecrets } from '../redactSecrets';
import { createAuthJsonStore, type AuthJsonStore } from './authJsonStore';
import { requireTemplateValue, type TemplateResolution } from './configTemplate';
import type { CatalogPurpose, CredentialSource, LibraryCatalog, LibraryModel, ModelLibrary, PiAiOrigin, RequestAuthOptions } from './modelLibrary';
import type { AuthResolution } from './modelsJsonAuth';
import { composeProviders, type ApiImplementations, type CollectionModel, type CollectionProvider } from './modelsJsonProviders';
import { renamedProviderNotes } from './renamedProviders';
import { readModelsStore, withStoredCatalogs } from './storedCatalogs';

/** A pi-ai `Models` collection, as far as it is used here. */
interface Collection {
	setProvider(provider: CollectionProvider): void;
	getModels(): readonly CollectionModel[];
	getModel(provider: string, id: string): CollectionModel | undefined;
	checkAuth(providerId: string): Promise<{ readonly type: string; readonly source?: string } | undefined>;
	getAuth(model: CollectionModel): Promise<AuthResolution | undefined>;
	stream(model: CollectionModel, context: unknown, options: unknown): AssistantMessageEventStream;
}

/** What is taken from a pi-ai of this generation: its entry, `providers/all` and `compat`. */
export interface CollectionPiAi {
	createModels(options: { readonly credentials: AuthJsonStore }): Collection;
	builtinProviders(): CollectionProvider[];
	/** When its built-in model data was generated (older copies may not say). */
	getBuiltinModelDataGeneratedAt?(): number | undefined;
	readonly getApiProvider: ApiImplementations;
	calculateCost(model: CollectionModel, usage: unknown): unknown;
	clampThinkingLevel(model: CollectionModel, level: string): string;
	/** Apis this copy cannot call (the bundled chunk leaves Bedrock's SDK out). */
	readonly unsupportedApis?: ReadonlySet<string>;
}

export function collectionLibrary(piAi: CollectionPiAi, origin: PiAiOrigin): ModelLibrary {
	return { origin, openCatalog: (agentDir, purpose) => openCatalog(piAi, origin, agentDir, purpose) };
}

async function openCatalog(piAi: CollectionPiAi, origin: PiAiOrigin, agentDir: string, purpose: CatalogPurpose): Promise<LibraryCatalog> {
	// Filled by requestAuth before anything resolves a value: the summarizer's command cache and timeout.
	const resolution: { commandCache?: Map<string, string>; commandTimeoutMs?: number } = {};
	// Pi's newer catalogs (models-store.json) first, then models.json over them, as Pi composes its providers.
	const builtIns = withStoredCatalogs(piAi.builtinProviders(), await readModelsStore(agentDir), piAi.getBuiltinModelDataGeneratedAt?.());
	const builtInIds = new Set(builtIns.map((provider) => provider.id));
	const modelsJson = await readModelsJson(agentDir, builtInIds, 'pi-1');
	const composed = composeProviders(builtIns, modelsJson.providers, piAi.getApiProvider, resolution, modelsJsonPath(agentDir));
	const store = createAuthJsonStore({ agentDir, mode: purpose, resolution });
	const collection = piAi.createModels({ credentials: store });
	for (const provider of composed.providers) {
		collection.setProvider(provider);
	}
	const stored = await store.list();
	const notes = [
		...composed.problems,
		...renamedProviderNotes(stored.map((entry) => entry.providerId), builtInIds, authFilePath(agentDir)),
		...renamedProviderNotes(Object.keys(modelsJson.providers), builtInIds, modelsJsonPath(agentDir)),
		...(store.problem() ? [store.problem() as string] : []),
	];
	const fileProblems = (): (string | undefined)[] => [store.problem(), modelsJson.problem, ...composed.problems];
	return {
		models: collection.getModels() as readonly (CollectionModel & LibraryModel)[],
		modelsJsonPath: modelsJsonPath(agentDir),
		modelsJsonProblem: modelsJson.problem,
		notes,
		find: (provider, id) => collection.getModel(provider, id) as (CollectionModel & LibraryModel) | undefined,
		async credentialSource(provider) {
			return (await collection.checkAuth(provider)) ? sourceOf(provider, await store.list(), modelsJson) : undefined;
		},
		async requestAuth(model, options) {
			Object.assign(resolution, { commandCache: options.commandCache, commandTimeoutMs: options.commandTimeoutMs } satisfies RequestAuthOptions);
			let found: AuthResolution | undefined;
			try {
				found = await collection.getAuth(model as unknown as CollectionModel);
			} catch (error) {
				throw explainAuthFailure(error, model.provider, agentDir, await storedSecrets(store, model.provider));
			}
			if (!found) {
				throw credentialsError(describeMissingKey(model.provider, agentDir, fileProblems()));
			}
			const headers = { ...definedHeaders(found.auth.headers), ...await modelHeaders(model, modelsJson, found.env, resolution, modelsJsonPath(agentDir)) };
			const source = sourceOf(model.provider, await store.list(), modelsJson);
			const written = source === 'models.json' ? modelsJson.providers[model.provider]?.apiKey : source === 'auth.json' ? await store.writtenKey(model.provider) : undefined;
			return {
				apiKey: found.auth.apiKey ?? '',
				headers: Object.keys(headers).length > 0 ? headers : undefined,
				source,
				unsetVariableHint: literalNameHint(written, model.provider, source === 'models.json' ? modelsJsonPath(agentDir) : authFilePath(agentDir)),
			};
		},
		unsupported: (model) => (piAi.unsupportedApis?.has(model.api)
			? `${model.provider}/${model.id} uses the api "${model.api}", which ${origin.kind === 'bundled' ? 'the pi-ai bundled with Pi Condense' : 'this pi-ai'} cannot call`
			: undefined),
		// The collection resolves the request's auth again (cached commands, a token now fresh); only the
		// headers models.json sets per model are not its own.
		stream: (model, context, options) => collection.stream(model as unknown as CollectionModel, context, {
			signal: options.signal, maxRetries: options.maxRetries, headers: options.headers,
			...(options.reasoningEffort ? { reasoningEffort: options.reasoningEffort } : {}),
		}),
		clampThinkingLevel: (model, level) => piAi.clampThinkingLevel(model as unknown as CollectionModel, level) as ModelThinkingLevel,
		calculateCost: (model, usage) => {
			piAi.calculateCost(model as unknown as CollectionModel, usage);
		},
	};
}

/** Where a configured provider's key comes from: its auth.json entry owns it, then models.json, then the environment. */
function sourceOf(provider: string, stored: readonly { readonly providerId: string; readonly type: string }[], modelsJson: ModelsJson): CredentialSource {
	const entry = stored.find((candidate) => candidate.providerId === provider);
	if (entry) {
		return entry.type === 'oauth' ? 'auth.json (OAuth)' : 'auth.json';
	}
	return modelsJson.providers[provider]?.apiKey !== undefined ? 'models.json' : 'environment';
}

/** The headers models.json sets on one model (its definition's and its override's), resolved. */
async function modelHeaders(model: LibraryModel, modelsJson: ModelsJson, env: Readonly<Record<string, string>> | undefined, resolution: TemplateResolution, where: string): Promise<Record<string, string>> {
	const config = modelsJson.providers[model.provider];
	const raw = { ...config?.modelOverrides?.[model.id]?.headers, ...config?.models?.find((definition) => definition.id === model.id)?.headers };
	const resolved: Record<string, string> = {};
	for (const [name, value] of Object.entries(raw)) {
		resolved[name] = await requireTemplateValue(value, { ...resolution, env, description: `header "${name}" of model "${model.provider}/${model.id}" in ${where}` }).catch((error: unknown) => {
			throw error instanceof ConfigValueError ? credentialsError(error.message) : error;
		});
	}
	return resolved;
}

/** Environment variable names as people write them: upper case, digits and underscores. */
const VARIABLE_NAME = /^[A-Z][A-Z0-9]*_[A-Z0-9_]*$/;

/**
 * A key written as a bare variable name (Pi 0.73 read it as a variable; since 0.77 it is the literal), to say
 * if the provider rejects it: the name itself was sent.
 */
function literalNameHint(written: string | undefined, provider: string, file: string): string | undefined {
	if (written === undefined || !VARIABLE_NAME.test(written)) {
		return undefined;
	}
	return `The key for provider "${provider}" in ${file} is "${written}", which looks like the name of an environment variable, but Pi reads a value literally unless it is written "$${written}" (since Pi 0.77), so the name itself was sent as the key. Write "$${written}" there to use the variable${process.env[written] ? '' : ` (and set ${written} in the environment VS Code runs in)`}.`;
}

function definedHeaders(headers: Readonly<Record<string, string | null>> | undefined): Record<string, string> {
	return Object.fromEntries(Object.entries(headers ?? {}).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

/** The tokens of a stored login, to keep out of messages (a provider's refresh error may echo them). */
async function storedSecrets(store: AuthJsonStore, provider: string): Promise<string[]> {
	const stored = await store.read(provider).catch(() => undefined);
	return stored?.type === 'oauth' ? [stored.access, stored.refresh] : stored?.key ? [stored.key] : [];
}

/**
 * pi-ai wraps what failed (`ModelsError`, code `auth` or `oauth`): the message the user needs is the cause's,
 * with the stored tokens taken out.
 */
export function explainAuthFailure(error: unknown, provider: string, agentDir: string, secrets: readonly string[]): SummarizerError {
	let cause: unknown = error;
	while (cause instanceof Error && !(cause instanceof ConfigValueError) && cause.cause !== undefined) {
		cause = cause.cause;
	}
	if (cause instanceof ConfigValueError) {
		return credentialsError(cause.message);
	}
	const code = error instanceof Error && 'code' in error ? (error as { code?: unknown }).code : undefined;
	if (code === 'oauth') {
		return credentialsError(
			`The login of provider "${provider}" in ${authFilePath(agentDir)} could not be refreshed (${redactSecrets(firstSentence(errorMessage(cause)), secrets)}). ` +
			'Run `pi` and use /login to sign in again.',
		);
	}
	return credentialsError(`Could not get the credentials of provider "${provider}": ${redactSecrets(firstSentence(errorMessage(cause)), secrets)}`);
}

/** The head of an error message: provider SDKs append details, causes and stacks to theirs. */
function firstSentence(message: string): string {
	const head = message.split('\n')[0]?.split('; stack=')[0]?.split('; details=')[0] ?? '';
	return head.length > 300 ? `${head.slice(0, 300)}…` : head;
}
