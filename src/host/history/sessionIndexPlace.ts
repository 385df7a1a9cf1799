/**
 * Where a window's session index is (`docs/session-index.md`): `piCondense.sessionIndex.path` (a
 * machine setting, so never from a workspace), else `$PI_CONDENSE_INDEX` as for the command line,
 * else the user's cache folder. Off with `piCondense.sessionIndex.enabled` false or
 * `$PI_CONDENSE_INDEX=off`.
 */
import { homedir } from 'node:os';
import { isAbsolute } from 'node:path';
import { defaultIndexPath } from '../../node/history/indexLocation';

export interface IndexPlaceSettings {
	readonly enabled: boolean;
	readonly path: string;
}

export type IndexPlace =
	| { readonly kind: 'off'; readonly why: string }
	| { readonly kind: 'file'; readonly path: string; readonly ownFolder: boolean };

export function indexPlace(settings: IndexPlaceSettings, env: NodeJS.ProcessEnv = process.env): IndexPlace {
	if (!settings.enabled) {
		return { kind: 'off', why: 'piCondense.sessionIndex.enabled is off' };
	}
	const chosen = settings.path.trim().replace(/^~(?=$|[\\/])/, homedir());
	if (chosen !== '') {
		return isAbsolute(chosen) ? { kind: 'file', path: chosen, ownFolder: false } : { kind: 'off', why: `piCondense.sessionIndex.path is not an absolute path: ${chosen}` };
	}
	const fromEnv = env['PI_CONDENSE_INDEX']?.trim() ?? '';
	if (fromEnv === 'off') {
		return { kind: 'off', why: 'PI_CONDENSE_INDEX=off' };
	}
	if (fromEnv !== '' && isAbsolute(fromEnv)) {
		return { kind: 'file', path: fromEnv, ownFolder: false };
	}
	return { kind: 'file', path: defaultIndexPath({ env, homedir: homedir(), platform: process.platform }), ownFolder: true };
}
