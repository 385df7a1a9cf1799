/**
 * Writes a throw-away Pi agent directory for tests: `models.json` with a custom provider that
 * points at the fake LLM server (`api: "openai-completions"`, `baseUrl: <url>/v1`), plus
 * `auth.json` and `settings.json` when asked. The same route serves the flush and VS Code tests.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installNpm } from './piInstall';
import { WRITER_RELEASE } from './releases';

export const FAKE_PROVIDER = 'fake-llm';
export const FAKE_MODEL = 'fake-model';

export interface FakeModelOptions {
	readonly id?: string;
	readonly reasoning?: boolean;
	readonly maxTokens?: number;
	/** $ per million tokens. */
	readonly cost?: { readonly input: number; readonly output: number; readonly cacheRead: number; readonly cacheWrite: number };
	readonly [field: string]: unknown;
}

export interface FakeAgentDirOptions {
	/** The fake server's url; adds the custom provider to models.json. */
	readonly serverUrl?: string;
	readonly provider?: string;
	/** models.json `apiKey` of the custom provider (Pi requires one). Default `FAKE_LLM_TEST_KEY_UNSET`. */
	readonly providerApiKey?: string;
	readonly models?: readonly FakeModelOptions[];
	/** Extra fields of the custom provider entry (`headers`, `compat`, `authHeader`, …). */
	readonly providerFields?: Readonly<Record<string, unknown>>;
	/** Other providers of models.json (overrides of built-ins, more custom providers). */
	readonly extraProviders?: Readonly<Record<string, unknown>>;
	/** Written verbatim as models.json, instead of everything above. */
	readonly modelsJsonText?: string;
	readonly auth?: Readonly<Record<string, unknown>>;
	readonly settings?: Readonly<Record<string, unknown>>;
	/**
	 * With `settings`: the pi-condense release installed as `pi install npm:pi-condense` leaves it
	 * (`packages` entry + package.json), so commands follow it. Default: the release our flush's
	 * entries are read as (`WRITER_RELEASE`); `null` for a Pi without pi-condense.
	 */
	readonly piCondense?: string | null;
}

export interface FakeAgentDir {
	readonly dir: string;
	readonly provider: string;
	/** `provider/id` of the first fake model, ready for `summarizerModel`. */
	readonly modelRef: string;
	cleanup(): Promise<void>;
}

export async function createFakeAgentDir(options: FakeAgentDirOptions = {}): Promise<FakeAgentDir> {
	const dir = await mkdtemp(join(tmpdir(), 'pi-condense-agent-'));
	const provider = options.provider ?? FAKE_PROVIDER;
	const models = options.models ?? [{ id: FAKE_MODEL }];
	const providers: Record<string, unknown> = { ...options.extraProviders };
	if (options.serverUrl) {
		providers[provider] = {
			baseUrl: `${options.serverUrl}/v1`,
			api: 'openai-completions',
			apiKey: options.providerApiKey ?? 'FAKE_LLM_TEST_KEY_UNSET',
			models,
			...options.providerFields,
		};
	}
	if (options.modelsJsonText !== undefined) {
		await writeFile(join(dir, 'models.json'), options.modelsJsonText);
	} else if (Object.keys(providers).length > 0) {
		await writeFile(join(dir, 'models.json'), JSON.stringify({ providers }, null, 2));
	}
	if (options.auth) {
		await writeFile(join(dir, 'auth.json'), JSON.stringify(options.auth, null, 2), { mode: 0o600 });
	}
	if (options.settings) {
		const release = options.piCondense === undefined ? WRITER_RELEASE.version : options.piCondense;
		const packages = release === null ? {} : { packages: ['npm:pi-condense'] };
		if (release !== null) {
			installNpm(dir, release);
		}
		await writeFile(join(dir, 'settings.json'), JSON.stringify({ ...packages, ...options.settings }, null, 2));
	}
	return {
		dir,
		provider,
		modelRef: `${provider}/${models[0]?.id ?? FAKE_MODEL}`,
		cleanup: () => rm(dir, { recursive: true, force: true }),
	};
}
