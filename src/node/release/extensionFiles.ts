/**
 * The extension files Pi finds in a folder, as its package manager finds them (0.73.1
 * `resolveExtensionEntries`, `collectAutoExtensionEntries`), each with the package folder it
 * belongs to, whose package.json identifies it.
 *
 * A folder is one extension when its package.json lists `pi.extensions` (those that exist) or it
 * has `index.ts` / `index.js`. Otherwise each top-level `*.ts` / `*.js` file is one, and so is each
 * non-hidden subfolder (not `node_modules`) that is an extension by the first rule. Not done:
 * `.gitignore` / `.ignore` / `.fdignore` (Pi skips what they ignore), and glob entries in a
 * manifest (pi-condense lists one plain file).
 */
import { readdir, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { readPackageJson } from './packageJson';

export interface ExtensionFile {
	readonly file: string;
	/** The package folder: the folder that made it an extension, or the folder a loose file is in. */
	readonly root: string;
}

export type PathKind = 'file' | 'dir' | 'missing';

export async function pathKind(path: string): Promise<PathKind> {
	try {
		const stats = await stat(path);
		return stats.isDirectory() ? 'dir' : stats.isFile() ? 'file' : 'missing';
	} catch {
		return 'missing';
	}
}

/** The files of the folder's package.json `pi.extensions` that exist; undefined without such a list. */
export async function manifestExtensions(dir: string): Promise<ExtensionFile[] | undefined> {
	const manifest = await readPackageJson(dir);
	if (manifest.kind !== 'ok' || !manifest.piExtensions) {
		return undefined;
	}
	const files: ExtensionFile[] = [];
	for (const entry of manifest.piExtensions) {
		const file = resolve(dir, entry);
		if (await pathKind(file) !== 'missing') {
			files.push({ file, root: dir });
		}
	}
	return files;
}

/** The folder's own extension entries (manifest, else index), or undefined when it has none. */
async function folderExtension(dir: string): Promise<ExtensionFile[] | undefined> {
	const listed = await manifestExtensions(dir);
	if (listed && listed.length > 0) {
		return listed;
	}
	for (const index of ['index.ts', 'index.js']) {
		if (await pathKind(join(dir, index)) === 'file') {
			return [{ file: join(dir, index), root: dir }];
		}
	}
	return undefined;
}

/** Everything Pi loads from a folder named in settings or auto-discovered. */
export async function discoverExtensions(dir: string): Promise<ExtensionFile[]> {
	if (await pathKind(dir) !== 'dir') {
		return [];
	}
	const own = await folderExtension(dir);
	if (own) {
		return own;
	}
	let names: string[];
	try {
		names = (await readdir(dir)).sort();
	} catch {
		return [];
	}
	const files: ExtensionFile[] = [];
	for (const name of names) {
		if (name.startsWith('.') || name === 'node_modules') {
			continue;
		}
		const path = join(dir, name);
		const kind = await pathKind(path);
		if (kind === 'file' && /\.(ts|js)$/.test(name)) {
			files.push({ file: path, root: dirname(path) });
		} else if (kind === 'dir') {
			files.push(...await folderExtension(path) ?? []);
		}
	}
	return files;
}

/** A settings path that names a file or a folder: the file itself, or what the folder holds. */
export async function extensionsAt(path: string): Promise<ExtensionFile[]> {
	const kind = await pathKind(path);
	if (kind === 'file') {
		return [{ file: path, root: dirname(path) }];
	}
	return kind === 'dir' ? discoverExtensions(path) : [];
}
