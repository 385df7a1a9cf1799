/**
 * Extension files Pi loads from the older `extensions` key of a settings file and from the scope's
 * auto-discovered `extensions/` folder (spec §8.2, §8.3). Plain entries are files or folders;
 * entries with `!`, `+`, `-` or a glob only filter, and in the auto-discovered folder only the
 * `!`, `+` and `-` ones apply.
 */
import { dirname, join } from 'node:path';
import type { CopyScope } from '../../engine/release';
import { DetectionLog, precedenceRank } from './candidates';
import { discoverExtensions, extensionsAt, type ExtensionFile } from './extensionFiles';
import { resolveFromBase, type PiSettings } from './piSettings';
import { enabledByOverrides, enabledByPatterns, isPattern } from './resourcePatterns';

export async function collectExtensionEntries(scope: CopyScope, settings: PiSettings, home: string, log: DetectionLog): Promise<void> {
	const plain = settings.extensions.filter((entry) => !isPattern(entry));
	const patterns = settings.extensions.filter(isPattern);
	const found: { readonly extension: ExtensionFile; readonly entry: string }[] = [];
	for (const entry of plain) {
		const path = resolveFromBase(entry, settings.baseDir, home);
		log.follow(path, 2);
		log.follow(join(dirname(path), 'package.json'));
		for (const extension of await extensionsAt(path)) {
			found.push({ extension, entry });
		}
	}
	const enabled = enabledByPatterns(found.map(({ extension }) => extension.file), patterns, settings.baseDir);
	for (const { extension, entry } of found) {
		log.candidates.push({
			...extension,
			enabled: enabled.has(extension.file),
			rank: precedenceRank(scope, 'extensions'),
			scope,
			foundBy: 'extensions',
			sourceKind: 'local',
			entry,
			settingsFile: settings.path,
			pinned: undefined,
		});
	}
}

/** `<agentDir>/extensions` or `<cwd>/.pi/extensions`, filtered by the scope's `extensions` overrides. */
export async function collectAutoDiscovered(scope: CopyScope, settings: PiSettings, log: DetectionLog): Promise<void> {
	const dir = join(settings.baseDir, 'extensions');
	log.search(dir);
	// Depth 2 reaches `extensions/<name>/package.json` and `extensions/<name>/index.ts`.
	log.follow(dir, 2);
	for (const extension of await discoverExtensions(dir)) {
		log.candidates.push({
			...extension,
			enabled: enabledByOverrides(extension.file, settings.extensions, settings.baseDir),
			rank: precedenceRank(scope, 'auto-discovery'),
			scope,
			foundBy: 'auto-discovery',
			sourceKind: 'local',
			entry: undefined,
			settingsFile: undefined,
			pinned: undefined,
		});
	}
}
