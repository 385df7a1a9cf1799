/**
 * Chooses and loads the pi-ai the summarizer, the model picker and the price look-ups use, on first use
 * (activation never touches pi-ai): the pi-ai of the Pi the user installed (`src/node/release/installedPi.ts`) when
 * that is allowed (VS Code: a trusted workspace; the CLI: always) and it loads, so summaries see the same
 * providers, models, credentials and provider names as the user's Pi; otherwise the one bundled in
 * `dist/pi-ai.js` (built from `piAiModule.ts`). Which one answers, and why, is its `origin`.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { errorMessage } from '../../base/errorMessage';
import { findInstalledPi, type FindPiInputs } from '../release/installedPi';
import { loadInstalledPiAi, piAiOf } from './library/installedPiAi';
import { describeOrigin, type ModelLibrary, type PiAiLoader, type PiAiOrigin } from './library/modelLibrary';
import { collectionLibrary, type CollectionPiAi } from './library/modelsLibrary';

export type { PiAiLoader } from './library/modelLibrary';

const PI_AI_CHUNK_FILE = 'pi-ai.js';
const BUNDLED_PI_AI = '@earendil-works/pi-ai';

/** Whether the installed Pi's pi-ai may be loaded; when not, why (shown with the bundled one). */
export type InstalledPiAiPolicy =
	| ({ readonly allowed: true } & Pick<FindPiInputs, 'env' | 'platform' | 'excludedRoots' | 'loginShell'>)
	| { readonly allowed: false; readonly reason: string };

export interface PiAiLoaderOptions {
	/** The folder holding the built chunk: `<extensionPath>/dist`, or the repo's `dist/` in tests. */
	readonly distDir: string;
	readonly installed: InstalledPiAiPolicy;
}

export function createPiAiLoader(options: PiAiLoaderOptions): PiAiLoader {
	let loaded: Promise<ModelLibrary> | undefined;
	return () => {
		loaded ??= choose(options).catch((error: unknown) => {
			loaded = undefined;
			throw error;
		});
		return loaded;
	};
}

async function choose(options: PiAiLoaderOptions): Promise<ModelLibrary> {
	if (!options.installed.allowed) {
		return loadBundled(options.distDir, options.installed.reason);
	}
	const search = await findInstalledPi(options.installed);
	if ('notFound' in search) {
		return loadBundled(options.distDir, search.notFound);
	}
	const pi = search.found;
	const piAi = await piAiOf(pi);
	if ('missing' in piAi) {
		return loadBundled(options.distDir, `the installed Pi ${pi.version} at ${pi.root}: ${piAi.missing}`);
	}
	try {
		return await loadInstalledPiAi(pi, piAi);
	} catch (error) {
		return loadBundled(options.distDir, `the pi-ai of the installed Pi ${pi.version} (${piAi.root}) could not be used: ${errorMessage(error)}`);
	}
}

/**
 * Which pi-ai a loader with `policy` would use, found without loading any (Show Status before the first call):
 * the installed Pi's when there is one, else the bundled one with the reason. Whether it then loads is
 * known only once it has (the worker reports it).
 */
export async function expectedPiAi(policy: InstalledPiAiPolicy): Promise<string> {
	const bundled = (reason: string): string => describeOrigin({ kind: 'bundled', piAiName: BUNDLED_PI_AI, piAiVersion: PI_CONDENSE_BUNDLED_PI_AI_VERSION, fallbackReason: reason });
	if (!policy.allowed) {
		return bundled(policy.reason);
	}
	const search = await findInstalledPi(policy);
	if ('notFound' in search) {
		return bundled(search.notFound);
	}
	const pi = search.found;
	const piAi = await piAiOf(pi);
	if ('missing' in piAi) {
		return bundled(`the installed Pi ${pi.version} at ${pi.root}: ${piAi.missing}`);
	}
	return `${describeOrigin({ kind: 'installed', piAiName: piAi.name, piAiVersion: piAi.version, piAiPath: piAi.root, pi: { name: pi.name, version: pi.version, path: pi.root } })}, not loaded yet`;
}

/** The bundled chunk, required the first time (it is CommonJS: one synchronous require). */
export function loadBundled(distDir: string, fallbackReason?: string): Promise<ModelLibrary> {
	const chunkPath = join(distDir, PI_AI_CHUNK_FILE);
	let chunk: CollectionPiAi & { readonly PI_AI_VERSION: string };
	try {
		chunk = createRequire(chunkPath)(chunkPath) as typeof chunk;
	} catch (error) {
		return Promise.reject(new Error(`Could not load the pi-ai chunk at ${chunkPath}: ${errorMessage(error)}`, { cause: error }));
	}
	const origin: PiAiOrigin = { kind: 'bundled', piAiName: BUNDLED_PI_AI, piAiVersion: chunk.PI_AI_VERSION, fallbackReason };
	return Promise.resolve(collectionLibrary(chunk, origin));
}
