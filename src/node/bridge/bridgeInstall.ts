/**
 * Installs the bridge into the user's Pi the way `pi install <local path>` does, so that it loads
 * after pi-condense: its files are copied to `<agentDir>/pi-condense-vscode-bridge/` (a folder that
 * outlives this extension's own, versioned one) and that folder is written as the last entry of
 * `packages` in `<agentDir>/settings.json`. Pi loads packages after its auto-discovered extensions
 * folders and in the order of that list (project packages first), so the last user package runs its
 * `context` handler after every pi-condense a user installs with `pi install`. Settings are changed
 * under Pi's own lock, keeping every other key. Removing undoes both.
 */
import { constants } from 'node:fs';
import { lstat, mkdir, open, readFile, rename, rm, unlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { errorMessage } from '../../base/errorMessage';
import { errorCode } from '../fs/errors';
import { readSettingsFile } from '../settings/settingsFile';
import { updateSettingsKey } from '../settings/updatePruneSettings';
import { globalSettingsPath } from '../paths/agentDir';

export const BRIDGE_INSTALL_FOLDER = 'pi-condense-vscode-bridge';
/** How the bridge is named in `packages`: relative to settings.json's folder, as `pi install` writes local paths. */
export const BRIDGE_PACKAGE_ENTRY = `./${BRIDGE_INSTALL_FOLDER}`;
/** The files of dist/bridge/ that make the Pi package. */
export const BRIDGE_FILES: readonly string[] = ['package.json', 'index.js'];

export interface BridgeInstallStatus {
	readonly folder: string;
	/** The version of the copied bridge, when its files are there. */
	readonly version: string | undefined;
	/** An entry of `packages` names the folder. */
	readonly inSettings: boolean;
	/** That entry is the last one (loaded after every other user package). */
	readonly last: boolean;
}

function sourceOf(entry: unknown): string | undefined {
	if (typeof entry === 'string') {
		return entry;
	}
	const source = typeof entry === 'object' && entry !== null ? (entry as { source?: unknown }).source : undefined;
	return typeof source === 'string' ? source : undefined;
}

/** Whether a `packages` entry names the bridge's folder (however the path is written). */
export function isBridgeEntry(agentDir: string, entry: unknown): boolean {
	const source = sourceOf(entry);
	return source !== undefined && !/^(npm|git|https?):/.test(source) && resolve(agentDir, source) === resolve(agentDir, BRIDGE_INSTALL_FOLDER);
}

export async function bridgeInstallStatus(agentDir: string): Promise<BridgeInstallStatus> {
	const folder = join(agentDir, BRIDGE_INSTALL_FOLDER);
	let version: string | undefined;
	try {
		const manifest = JSON.parse(await readFile(join(folder, 'package.json'), 'utf8')) as { version?: unknown };
		version = typeof manifest.version === 'string' ? manifest.version : undefined;
	} catch {
		version = undefined;
	}
	const packages = (await readSettingsFile(globalSettingsPath(agentDir))).settings?.packages;
	const list: readonly unknown[] = Array.isArray(packages) ? packages : [];
	const at = list.findIndex((entry) => isBridgeEntry(agentDir, entry));
	return { folder, version, inSettings: at >= 0, last: at >= 0 && at === list.length - 1 };
}

/** What the palette needs of an install (its Connect and Disconnect `when` clauses). */
export interface BridgeInstallFacts {
	/** Anything of the bridge is there, its folder or its entry: Disconnect has something to remove. */
	readonly installed: boolean;
	/** Its files are there and its entry is Pi's last package: Connect has nothing to fix. */
	readonly ready: boolean;
}

export function bridgeInstallFacts(status: BridgeInstallStatus): BridgeInstallFacts {
	return { installed: status.inSettings || status.version !== undefined, ready: status.last && status.version !== undefined };
}

/** Copies the bridge from `sourceDir` (the extension's dist/bridge) and makes it Pi's last package. */
export async function installBridge(agentDir: string, sourceDir: string): Promise<BridgeInstallStatus> {
	const folder = join(agentDir, BRIDGE_INSTALL_FOLDER);
	await mkdir(agentDir, { recursive: true });
	await mkdir(folder, { mode: 0o700 }).catch((error: unknown) => {
		if (errorCode(error) !== 'EEXIST') {
			throw error;
		}
	});
	if (!(await lstat(folder)).isDirectory()) {
		throw new Error(`${folder} is not a folder (a link or a file is in its place): remove it, then connect again.`);
	}
	for (const name of BRIDGE_FILES) {
		await replaceFile(join(folder, name), await readFile(join(sourceDir, name)));
	}
	await updateSettingsKey(agentDir, 'packages', (current) => {
		if (current !== undefined && !Array.isArray(current)) {
			throw new Error(`"packages" in ${globalSettingsPath(agentDir)} is not a list: fix it, then connect again.`);
		}
		const others = ((current as unknown[] | undefined) ?? []).filter((entry) => !isBridgeEntry(agentDir, entry));
		return [...others, BRIDGE_PACKAGE_ENTRY];
	});
	return bridgeInstallStatus(agentDir);
}

/** Takes the bridge out of `packages` and removes its folder. */
export async function uninstallBridge(agentDir: string): Promise<void> {
	const status = await bridgeInstallStatus(agentDir);
	if (status.inSettings) {
		await updateSettingsKey(agentDir, 'packages', (current) => (Array.isArray(current) ? current.filter((entry) => !isBridgeEntry(agentDir, entry)) : current));
	}
	const stats = await lstat(status.folder).catch(() => undefined);
	if (stats?.isDirectory()) {
		await rm(status.folder, { recursive: true, force: true });
	} else if (stats) {
		throw new Error(`${status.folder} is not the bridge's folder (a link or a file): it was left as it is.`);
	}
}

/** Writes a file through a temporary one created exclusively (never through a link) and a rename. */
async function replaceFile(path: string, bytes: Buffer): Promise<void> {
	const temporary = `${path}.${process.pid}.${Date.now().toString(36)}.tmp`;
	const file = await open(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o600);
	try {
		await file.writeFile(bytes);
		await file.close();
		await rename(temporary, path);
	} catch (error) {
		await file.close().catch(() => undefined);
		await unlink(temporary).catch(() => undefined);
		throw new Error(`Could not write ${path}: ${errorMessage(error)}`, { cause: error });
	}
}
