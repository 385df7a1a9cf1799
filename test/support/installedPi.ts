/**
 * A real installed Pi for tests, laid out as `npm install -g` leaves it: a global prefix with
 * `lib/node_modules/<package>` (a link to this repository's devDependency of that Pi) and `bin/pi` (a link
 * to its command). A loader given `PATH=<prefix>/bin` finds that Pi and loads its pi-ai, exactly as it finds
 * a user's: Pi 1.6.0 (`@earendil-works/pi-coding-agent`, pi-ai 1.6.0) or Pi 0.73.1 (`@mariozechner/…`, pi-ai 0.73.1).
 */
import { mkdir, mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createPiAiLoader, type PiAiLoaderOptions } from '../../src/node/llm/piAiLoader';
import type { PiAiLoader } from '../../src/node/llm/library/modelLibrary';
import { distDir } from './piAiForTests';

export const INSTALLABLE_PIS = {
	'1.6.0': '@earendil-works/pi-coding-agent',
	'0.73.1': '@mariozechner/pi-coding-agent',
} as const;

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
	const name = INSTALLABLE_PIS[version];
	const source = join(process.cwd(), 'node_modules', ...name.split('/'));
	const manifest = JSON.parse(await readFile(join(source, 'package.json'), 'utf8')) as { version: string; bin: Record<string, string> };
	if (manifest.version !== version) {
		throw new Error(`node_modules holds ${name} ${manifest.version}, not ${version}`);
	}
	const prefix = await mkdtemp(join(tmpdir(), 'pi-condense-npm-prefix-'));
	const packageDir = join(prefix, 'lib', 'node_modules', ...name.split('/'));
	await mkdir(dirname(packageDir), { recursive: true });
	await symlink(source, packageDir, 'dir');
	const binDir = join(prefix, 'bin');
	await mkdir(binDir);
	await symlink(join(packageDir, manifest.bin.pi ?? ''), join(binDir, 'pi'));
	return {
		prefix, binDir, packageDir,
		loader: (extra = {}) => createPiAiLoader({ distDir, installed: { allowed: true, env: { PATH: binDir }, ...extra } }),
		cleanup: () => rm(prefix, { recursive: true, force: true }),
	};
}
