/**
 * The auth of a provider models.json names, as Pi 1.x composes it (pi-ai 0.8x and later): its `apiKey`
 * (resolved as `configTemplate.ts` says) is used when auth.json has no credential for it, else the built-in
 * provider's own sources; its `headers` (resolved the same way) and `authHeader` (`Authorization: Bearer`)
 * go with every request, its OAuth login's too. Checking whether a provider is configured runs nothing.
 */
import { type JsonObject } from '../jsonFile';
import type { ProviderConfig } from '../modelsJson';
import { requireTemplateValue, templateVariables, type TemplateResolution } from './configTemplate';
import { isPlainObject } from '../../../base/plainObject';

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

/** A provider's auth methods (pi-ai's `ProviderAuth`). */
export interface ProviderAuthMethods {
	readonly apiKey?: ApiKeyMethod;
	readonly oauth?: OAuthMethod;
}

/** The summarizer's command cache and timeout (read when a value resolves), and models.json's path. */
export type Resolution = TemplateResolution & { readonly where: string };

/** `base`: the built-in provider's auth, if models.json names a built-in provider. */
export function composeApiKey(id: string, base: ProviderAuthMethods | undefined, config: ProviderConfig, resolution: Resolution): ApiKeyMethod | undefined {
	const inherited = base?.apiKey;
	const rawKey = config.apiKey;
	if (!inherited && rawKey === undefined && base?.oauth) {
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

export function composeOAuth(id: string, base: ProviderAuthMethods | undefined, config: ProviderConfig, resolution: Resolution): OAuthMethod | undefined {
	const oauth = base?.oauth;
	if (!oauth) {
		return undefined;
	}
	return {
		...oauth,
		toAuth: async (credential) => {
			const env = isPlainObject(credential.env) ? credential.env as Record<string, string> : undefined;
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
