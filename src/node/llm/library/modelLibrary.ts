/**
 * What the summarizer, the model picker and the price look-ups use of pi-ai, whichever pi-ai answers: the one
 * of the Pi the user installed (`installedPi.ts`) or the one bundled in `dist/pi-ai.js`, and whichever of its
 * two APIs it has: the global catalog functions of pi-ai 0.7x (`legacyLibrary.ts`, Pi 0.73's rules for
 * auth.json and models.json) or the `createModels` collection of pi-ai 0.8x and 1.x (`modelsLibrary.ts`,
 * Pi 1.x's rules). Models are passed back to the library that made them; only the fields below are read.
 */
import type { AssistantMessageEventStream, ModelThinkingLevel, ThinkingLevel } from '@earendil-works/pi-ai';
import type { Usage } from '../../../engine/session';

export interface LibraryModel {
	readonly id: string;
	readonly name: string;
	readonly api: string;
	readonly provider: string;
	readonly baseUrl: string;
	readonly reasoning: boolean;
	readonly contextWindow: number;
	readonly maxTokens: number;
	/** USD per million tokens. */
	readonly cost: { readonly input: number; readonly output: number; readonly cacheRead: number; readonly cacheWrite: number };
	readonly headers?: Readonly<Record<string, string>>;
}

export type CredentialSource = 'auth.json' | 'auth.json (OAuth)' | 'environment' | 'models.json';

export interface RequestAuth {
	readonly apiKey: string;
	readonly headers?: Readonly<Record<string, string>>;
	readonly source: CredentialSource;
	/**
	 * Set when the key is the literal name of an environment variable that is not set (Pi 0.73 then sends
	 * the name itself as the key): what to tell the user if the provider rejects it.
	 */
	readonly unsetVariableHint?: string;
}

export interface RequestAuthOptions {
	/** Bound on `!command` credentials (default 10 s, as Pi). */
	readonly commandTimeoutMs?: number;
	/** Results of `!command` credentials, kept for the summarizer's life as Pi keeps them per process. */
	readonly commandCache: Map<string, string>;
	/** Tests: the clock OAuth expiry is judged by (pi-ai 0.7x only). */
	readonly now?: () => number;
}

/**
 * One request as pi-condense makes it: pi-ai's `stream` (not `streamSimple`, which adds an output
 * cap), the thinking level as `reasoningEffort`.
 */
export interface StreamOptions {
	readonly signal: AbortSignal;
	readonly reasoningEffort?: ThinkingLevel;
	readonly maxRetries: number | undefined;
	readonly apiKey: string;
	readonly headers: Record<string, string> | undefined;
}

/** One prompt as pi-ai takes it: user messages of text. */
export interface PromptContext {
	readonly messages: readonly {
		readonly role: 'user';
		readonly content: string | readonly { readonly type: 'text'; readonly text: string }[];
		readonly timestamp: number;
	}[];
}

/** Which pi-ai answers, and why: shown in the log and in Show Status. */
export interface PiAiOrigin {
	readonly kind: 'installed' | 'bundled';
	readonly piAiName: string;
	readonly piAiVersion: string;
	/** The pi-ai package folder (installed only). */
	readonly piAiPath?: string;
	/** The installed Pi it belongs to. */
	readonly pi?: { readonly name: string; readonly version: string; readonly path: string };
	/** For the bundled one: why the installed Pi's is not used. */
	readonly fallbackReason?: string;
}

/** The models, credentials and streaming of one agent dir, as one pi-ai sees them at one moment. */
export interface LibraryCatalog {
	readonly models: readonly LibraryModel[];
	readonly modelsJsonPath: string;
	/** Why models.json contributes nothing (or less than it says), if it does. */
	readonly modelsJsonProblem?: string;
	/** Other things the user should know (an unreadable auth.json, a provider Pi renamed). */
	readonly notes: readonly string[];
	find(provider: string, id: string): LibraryModel | undefined;
	/** Which source would supply a key for `provider`, without running a command or refreshing a token. */
	credentialSource(provider: string): Promise<CredentialSource | undefined>;
	/** The key and headers of one request; may run a `!command` and refresh an OAuth login (as Pi does). */
	requestAuth(model: LibraryModel, options: RequestAuthOptions): Promise<RequestAuth>;
	/** Why this pi-ai cannot call `model`, when it cannot (Bedrock in the bundled chunk). */
	unsupported(model: LibraryModel): string | undefined;
	stream(model: LibraryModel, context: PromptContext, options: StreamOptions): AssistantMessageEventStream;
	clampThinkingLevel(model: LibraryModel, level: ThinkingLevel): ModelThinkingLevel;
	calculateCost(model: LibraryModel, usage: Usage): void;
}

export type CatalogPurpose = 'request' | 'probe';

export interface ModelLibrary {
	readonly origin: PiAiOrigin;
	/**
	 * Reads `<agentDir>`'s models.json and auth.json. `request`: for a summarizer call (trusted workspace
	 * only); `probe`: for listings and prices, where nothing runs and nothing is written.
	 */
	openCatalog(agentDir: string, purpose: CatalogPurpose): Promise<LibraryCatalog>;
}

/** Returns the pi-ai to use, loading it the first time. */
export type PiAiLoader = () => Promise<ModelLibrary>;

/** "pi-ai 1.6.0 of the installed Pi 1.6.0 (/usr/lib/node_modules/…)" or "the bundled pi-ai 1.6.0 (why)". */
export function describeOrigin(origin: PiAiOrigin): string {
	if (origin.kind === 'installed') {
		const pi = origin.pi ? ` of the installed Pi ${origin.pi.version} (${origin.pi.path})` : ` (${origin.piAiPath ?? ''})`;
		return `${origin.piAiName} ${origin.piAiVersion}${pi}`;
	}
	return `the bundled ${origin.piAiName} ${origin.piAiVersion}${origin.fallbackReason ? ` (${origin.fallbackReason})` : ''}`;
}
