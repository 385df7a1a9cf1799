/**
 * Resolves and loads the pi-ai package of an installed Pi (found by `src/node/release/installedPi.ts`):
 * resolved from the Pi's folder as Node resolves it, loaded as ESM from its own folder through its
 * `exports` map, and its API told apart: pi-ai 0.8x and 1.x expose `createModels` and `providers/all` (`modelsLibrary.ts`),
 * pi-ai 0.7x its global catalog functions and an `oauth` entry (`legacyLibrary.ts`). Anything else, or
 * a module without the functions used, is refused with the reason, and the bundled pi-ai answers instead.
 */
import { readFile, realpath } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FoundPi } from '../../release/installedPi';
import { readPackageJson } from '../../release/packageJson';
import { legacyLibrary } from './legacyLibrary';
import type { LegacyPiAi } from './legacyPiAi';
import type { ModelLibrary, PiAiOrigin } from './modelLibrary';
import { collectionLibrary, type CollectionPiAi } from './modelsLibrary';
import { isPlainObject } from '../../../base/plainObject';

type ModuleRecord = Record<string, unknown>;

export interface PackageFolder {
	readonly name: string;
	readonly version: string;
	/** The package's folder, links resolved. */
	readonly root: string;
}

/** The pi-ai this Pi resolves (`@earendil-works/pi-ai` beside Pi 1.x, `@mariozechner/pi-ai` beside 0.7x), or why none. */
export async function piAiOf(pi: FoundPi): Promise<PackageFolder | { readonly missing: string }> {
	const name = pi.name.replace(/pi-coding-agent$/, 'pi-ai');
	return await resolvePackage(pi.root, name) ?? { missing: `${name} is not installed beside ${pi.root}` };
}

/** `name` as Node resolves it from `from`: `node_modules/<name>` in that folder, then in each folder above. */
async function resolvePackage(from: string, name: string): Promise<PackageFolder | undefined> {
	for (let dir = from; ; dir = dirname(dir)) {
		const candidate = join(dir, 'node_modules', ...name.split('/'));
		const read = await readPackageJson(candidate);
		if (read.kind === 'ok' && read.name === name && typeof read.version === 'string') {
			return { name, version: read.version, root: await realpath(candidate).catch(() => candidate) };
		}
		if (dir === dirname(dir)) {
			return undefined;
		}
	}
}

export async function loadInstalledPiAi(pi: FoundPi, piAi: PackageFolder): Promise<ModelLibrary> {
	const manifest: unknown = JSON.parse(await readFile(join(piAi.root, 'package.json'), 'utf8'));
	const exportsMap = isPlainObject(manifest) ? manifest.exports : undefined;
	const entry = (subpath: string): string | undefined => {
		const target = exportTarget(exportsMap, subpath);
		return target === undefined ? undefined : join(piAi.root, target);
	};
	const origin: PiAiOrigin = {
		kind: 'installed', piAiName: piAi.name, piAiVersion: piAi.version, piAiPath: piAi.root,
		pi: { name: pi.name, version: pi.version, path: pi.root },
	};
	const main = entry('.');
	if (main === undefined) {
		throw new Error(`${piAi.name} ${piAi.version} exports no entry point`);
	}
	const all = entry('./providers/all');
	if (all !== undefined) {
		const compat = entry('./compat');
		const [index, providers, compatModule] = await Promise.all([importFile(main), importFile(all), compat === undefined ? {} : importFile(compat)]);
		const record = { ...compatModule, ...index, ...providers };
		return collectionLibrary(requireFunctions(record, ['createModels', 'builtinProviders', 'getApiProvider', 'calculateCost', 'clampThinkingLevel'], piAi) as unknown as CollectionPiAi, origin);
	}
	const oauth = entry('./oauth');
	const [index, oauthModule] = await Promise.all([importFile(main), oauth === undefined ? {} : importFile(oauth)]);
	const record = { ...oauthModule, ...index };
	return legacyLibrary(requireFunctions(record, ['getProviders', 'getModels', 'stream', 'getEnvApiKey', 'getOAuthProvider', 'calculateCost', 'clampThinkingLevel'], piAi) as unknown as LegacyPiAi, origin);
}

function requireFunctions(record: ModuleRecord, names: readonly string[], piAi: PackageFolder): ModuleRecord {
	const missing = names.filter((name) => typeof record[name] !== 'function');
	if (missing.length > 0) {
		throw new Error(`${piAi.name} ${piAi.version} has no ${missing.join(', ')}: not a pi-ai Pi Condense can drive`);
	}
	return record;
}

/** The file an `exports` map gives for `subpath` under the `import` (else `default`) condition; `*` patterns too. */
function exportTarget(exportsMap: unknown, subpath: string): string | undefined {
	if (!isPlainObject(exportsMap)) {
		return subpath === '.' && typeof exportsMap === 'string' ? exportsMap : undefined;
	}
	const exact = exportsMap[subpath];
	if (exact !== undefined) {
		return conditionTarget(exact);
	}
	for (const [pattern, value] of Object.entries(exportsMap)) {
		const star = pattern.indexOf('*');
		if (star >= 0 && subpath.startsWith(pattern.slice(0, star)) && subpath.endsWith(pattern.slice(star + 1))) {
			const matched = subpath.slice(star, subpath.length - (pattern.length - star - 1));
			return conditionTarget(value)?.replace('*', matched);
		}
	}
	return undefined;
}

function conditionTarget(value: unknown): string | undefined {
	if (typeof value === 'string') {
		return value;
	}
	if (!isPlainObject(value)) {
		return undefined;
	}
	for (const condition of ['import', 'node', 'default']) {
		const target = conditionTarget(value[condition]);
		if (target !== undefined) {
			return target;
		}
	}
	return undefined;
}

/** An ES module by path. (A CommonJS bundle keeps `import()` of a computed specifier as it is.) */
async function importFile(path: string): Promise<ModuleRecord> {
	const loaded: unknown = await import(pathToFileURL(path).href);
	return isPlainObject(loaded) ? loaded : {};
}
