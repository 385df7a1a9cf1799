/**
 * For a pi-ai 0.7x (`library/legacyLibrary.ts`): finds the API key and request headers for a model in
 * Pi 0.73.1's order: `<agentDir>/auth.json` (an API key, or an OAuth token while it is unexpired), then
 * the provider's environment variable, then `apiKey` in models.json. With this generation we never
 * refresh OAuth tokens (its refresh takes no lock of auth.json); the current one does, under Pi's lock
 * (`library/authJsonStore.ts`). Error messages name the provider and what to set, never a secret.
 */
import { SummarizerError } from '../../engine/ports';
import { authFilePath, type AuthFile } from './authFile';
import { ConfigValueError, resolveConfigValue } from './configValue';
import type { ModelCatalog, PiModel } from './modelCatalog';
import { modelsJsonPath } from './modelsJson';
import type { LegacyPiAi as PiAi } from './library/legacyPiAi';
import type { CredentialSource, RequestAuth } from './library/modelLibrary';
import { providerEnvVars } from './providerEnvVars';

export type { CredentialSource, RequestAuth };

export interface CredentialContext {
	readonly piAi: PiAi;
	readonly agentDir: string;
	readonly catalog: ModelCatalog;
	readonly auth: AuthFile;
	readonly commandTimeoutMs?: number;
	/** Results of auth.json `!command` keys, kept for the resolver's life as Pi does. */
	readonly commandCache?: Map<string, string>;
	readonly now?: () => number;
}

export async function resolveRequestAuth(model: PiModel, context: CredentialContext): Promise<RequestAuth> {
	const found = await findApiKey(model.provider, context);
	const headers = await resolveRequestHeaders(model, context);
	const authHeader = context.catalog.requestConfigs.get(model.provider)?.authHeader;
	const withAuthorization = authHeader ? { ...headers, Authorization: `Bearer ${found.apiKey}` } : headers;
	const hasHeaders = withAuthorization && Object.keys(withAuthorization).length > 0;
	return { ...found, headers: hasHeaders ? withAuthorization : undefined };
}

/** Which source would supply a key, without running any command (for listing usable models). */
export function credentialSource(provider: string, context: Pick<CredentialContext, 'piAi' | 'catalog' | 'auth'>): CredentialSource | undefined {
	const stored = context.auth.credentials.get(provider);
	if (stored) {
		return stored.type === 'oauth' ? 'auth.json (OAuth)' : 'auth.json';
	}
	if (context.piAi.getEnvApiKey(provider)) {
		return 'environment';
	}
	return context.catalog.requestConfigs.get(provider)?.apiKey ? 'models.json' : undefined;
}

async function findApiKey(provider: string, context: CredentialContext): Promise<{ apiKey: string; source: CredentialSource }> {
	const stored = context.auth.credentials.get(provider);
	if (stored?.type === 'api_key') {
		const apiKey = await resolveAuthFileKey(stored.key, provider, context);
		if (apiKey) {
			return withUnsetVariableHint({ apiKey, source: 'auth.json' }, stored.key, provider, authFilePath(context.agentDir));
		}
	}
	if (stored?.type === 'oauth') {
		const oauthProvider = context.piAi.getOAuthProvider(provider);
		const now = context.now?.() ?? Date.now();
		if (oauthProvider && now < stored.expires) {
			return { apiKey: oauthProvider.getApiKey(stored), source: 'auth.json (OAuth)' };
		}
		if (oauthProvider) {
			throw credentialsError(
				`The ${oauthProvider.name} login for provider "${provider}" in ${authFilePath(context.agentDir)} expired at ` +
				`${new Date(stored.expires).toISOString()}. Run \`pi\` and send a message (or use /login) so Pi refreshes it; ` +
				'Pi Condense never refreshes OAuth tokens itself.',
			);
		}
	}
	const fromEnvironment = context.piAi.getEnvApiKey(provider);
	if (fromEnvironment) {
		return { apiKey: fromEnvironment, source: 'environment' };
	}
	const configured = context.catalog.requestConfigs.get(provider)?.apiKey;
	if (configured) {
		const apiKey = await resolveOrExplain(configured, `"apiKey" of provider "${provider}" in ${modelsJsonPath(context.agentDir)}`, context);
		if (apiKey) {
			return withUnsetVariableHint({ apiKey, source: 'models.json' }, configured, provider, modelsJsonPath(context.agentDir));
		}
	}
	throw credentialsError(describeMissingKey(provider, context.agentDir, [context.auth.problem, context.catalog.modelsJsonProblem]));
}

/** Environment variable names as people write them: upper case, digits and underscores. */
const VARIABLE_NAME = /^[A-Z][A-Z0-9]*_[A-Z0-9_]*$/;

function withUnsetVariableHint(found: { apiKey: string; source: CredentialSource }, value: string, provider: string, file: string): { apiKey: string; source: CredentialSource; unsetVariableHint?: string } {
	if (value.startsWith('!') || !VARIABLE_NAME.test(value) || process.env[value]) {
		return found;
	}
	return {
		...found,
		unsetVariableHint: `The key for provider "${provider}" in ${file} is "${value}", which looks like the name of an environment variable, but no variable of that name is set, so the name itself was sent as the key. Set ${value} in the environment VS Code runs in, or put the key there instead.`,
	};
}

async function resolveAuthFileKey(key: string, provider: string, context: CredentialContext): Promise<string> {
	const cached = context.commandCache?.get(key);
	if (cached !== undefined) {
		return cached;
	}
	const value = await resolveOrExplain(key, `key of provider "${provider}" in ${authFilePath(context.agentDir)}`, context);
	if (key.startsWith('!')) {
		context.commandCache?.set(key, value);
	}
	return value;
}

async function resolveRequestHeaders(model: PiModel, context: CredentialContext): Promise<Record<string, string> | undefined> {
	const providerHeaders = context.catalog.requestConfigs.get(model.provider)?.headers;
	const modelHeaders = context.catalog.modelHeaders.get(`${model.provider}/${model.id}`);
	if (!model.headers && !providerHeaders && !modelHeaders) {
		return undefined;
	}
	const headers: Record<string, string> = { ...model.headers };
	const where = modelsJsonPath(context.agentDir);
	for (const [scope, source] of [[`provider "${model.provider}"`, providerHeaders], [`model "${model.provider}/${model.id}"`, modelHeaders]] as const) {
		for (const [name, value] of Object.entries(source ?? {})) {
			headers[name] = await resolveOrExplain(value, `header "${name}" of ${scope} in ${where}`, context);
		}
	}
	return headers;
}

async function resolveOrExplain(value: string, description: string, context: CredentialContext): Promise<string> {
	try {
		return await resolveConfigValue(value, { description, commandTimeoutMs: context.commandTimeoutMs });
	} catch (error) {
		if (error instanceof ConfigValueError) {
			throw credentialsError(error.message);
		}
		throw error;
	}
}

/** What to set when nothing supplies a key for `provider`, with what was wrong with the files that might have. */
export function describeMissingKey(provider: string, agentDir: string, fileProblems: readonly (string | undefined)[]): string {
	const envVars = providerEnvVars(provider);
	const options = [
		...(envVars.length > 0 ? [`set ${envVars.join(' or ')}`] : []),
		`add a key for "${provider}" to ${authFilePath(agentDir)} (for example with Pi's /login)`,
		`set "apiKey" for provider "${provider}" in ${modelsJsonPath(agentDir)}`,
	];
	const problems = fileProblems.filter((problem) => problem !== undefined);
	const note = problems.length > 0 ? ` Note: ${problems.join('; ')}.` : '';
	return `No API key for provider "${provider}": ${options.join(', or ')}.${note}`;
}

export function credentialsError(message: string): SummarizerError {
	return new SummarizerError('credentials', message);
}
