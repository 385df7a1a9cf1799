/**
 * A real installed Pi for tests (`piPrefix.mjs`): a loader given `PATH=<prefix>/bin` finds that Pi and loads
 * its pi-ai exactly as it finds a user's: Pi 1.6.0 (`@earendil-works/pi-coding-agent`, pi-ai 1.6.0) or Pi 0.73.1
 * (`@mariozechner/…`, pi-ai 0.73.1).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPiAiLoader, type PiAiLoaderOptions } from '../../src/node/llm/piAiLoader';
import type { PiAiLoader } from '../../src/node/llm/library/modelLibrary';
import { distDir } from './piAiForTests';
import { installPiInPrefix, type INSTALLABLE_PIS } from './piPrefix.mjs';

export interface InstalledPiPrefix {
	readonly prefix: string;
	readonly binDir: string;
	/** The Pi package as installed (the link under the prefix). */
	readonly packageDir: string;
	/** A loader that may use the installed Pi's pi-ai, finding it through `PATH=<prefix>/bin` only. */
	readonly loader: (extra?: Partial<Extract<PiAiLoaderOptions['installed'], { allowed: true }>>) => PiAiLoader;
	readonly cleanup: () => Promise<void>;
}

export async function installPiGlobally(version: keyof typeof INSTALLABLE_PIS): Promise<InstalledPiPrefix> {
	const prefix = await mkdtemp(join(tmpdir(), 'pi-condense-npm-prefix-'));
	const { binDir, packageDir } = installPiInPrefix(process.cwd(), prefix, version);
	return {
		prefix, binDir, packageDir,
		loader: (extra = {}) => createPiAiLoader({ distDir, installed: { allowed: true, env: { PATH: binDir }, ...extra } }),
		cleanup: () => rm(prefix, { recursive: true, force: true }),
	};
}
