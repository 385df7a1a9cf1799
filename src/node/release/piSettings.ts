/**
 * The parts of Pi's settings files that decide which extensions Pi loads: `packages`,
 * `extensions` and `npmCommand`, read the way Pi's settings manager reads them (a file that does
 * not parse counts as `{}`, and is reported), and paths resolved the way its package manager
 * resolves them.
 */
import { join, resolve } from 'node:path';
import type { ReleaseWarning } from '../../engine/release';
import type { SettingsFileState } from '../../engine/config';
import { readSettingsFile } from '../settings/settingsFile';

/** A `packages` entry: a source string, or an object with a source and resource filters. */
export interface PackageEntry {
	/** The source text as written (`npm:pi-condense`, `../pi-condense`). */
	readonly source: string;
	/** The object's `extensions` filter; undefined for a string entry or an object without one. */
	readonly extensionsFilter: readonly string[] | undefined;
	/** An object entry with `autoload: false`: a filter over the same package of the user scope. */
	readonly filterOnly: boolean;
}

export interface PiSettings {
	readonly path: string;
	/** The folder relative paths resolve against: the agent dir, or `<cwd>/.pi`. */
	readonly baseDir: string;
	readonly packages: readonly PackageEntry[];
	readonly extensions: readonly string[];
	readonly npmCommand: readonly string[] | undefined;
	readonly problem: ReleaseWarning | undefined;
}

export async function readPiSettings(path: string, baseDir: string): Promise<PiSettings> {
	const file = await readSettingsFile(path);
	const settings = file.settings ?? {};
	const strings = (value: unknown): string[] => Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
	const npmCommand = strings(settings.npmCommand);
	return {
		path,
		baseDir,
		packages: Array.isArray(settings.packages) ? settings.packages.flatMap(packageEntry) : [],
		extensions: strings(settings.extensions),
		npmCommand: npmCommand.length > 0 ? npmCommand : undefined,
		problem: problemOf(path, file.state),
	};
}

function packageEntry(value: unknown): PackageEntry[] {
	if (typeof value === 'string') {
		return [{ source: value, extensionsFilter: undefined, filterOnly: false }];
	}
	if (typeof value !== 'object' || value === null || Array.isArray(value)) {
		return [];
	}
	const record = value as Record<string, unknown>;
	if (typeof record.source !== 'string') {
		return [];
	}
	const filter = Array.isArray(record.extensions) ? record.extensions.filter((item): item is string => typeof item === 'string') : undefined;
	return [{ source: record.source, extensionsFilter: filter, filterOnly: record.autoload === false }];
}

function problemOf(path: string, state: SettingsFileState): ReleaseWarning | undefined {
	switch (state.kind) {
		case 'invalid-json': {
			const where = state.line === undefined ? '' : ` at line ${state.line}, column ${state.column ?? 1}`;
			return { kind: 'unreadable-settings', file: path, reason: `not valid JSON${where}: ${state.message}` };
		}
		case 'not-object':
			return { kind: 'unreadable-settings', file: path, reason: `it contains ${state.found}, not a JSON object` };
		case 'unreadable':
			return { kind: 'unreadable-settings', file: path, reason: state.message };
		default:
			return undefined;
	}
}

/**
 * A path from a settings entry, as Pi's package manager resolves it: trimmed, `~`, `~/x` and even
 * `~x` under the home folder, anything else against the settings file's folder.
 */
export function resolveFromBase(input: string, baseDir: string, home: string): string {
	const trimmed = input.trim();
	if (trimmed === '~') {
		return home;
	}
	if (trimmed.startsWith('~')) {
		return join(home, trimmed.slice(trimmed.startsWith('~/') ? 2 : 1));
	}
	return resolve(baseDir, trimmed);
}
