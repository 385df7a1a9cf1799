/**
 * What Pi Condense does not do in a workspace VS Code has not trusted (restricted mode), and how it
 * says so. A repository can hold settings that point Pi Condense somewhere; until the user trusts
 * it, the read-only views work but nothing is summarized (no model is called, no key is used) and
 * nothing is written: not to sessions, not to Pi's settings.json, and no process is started. (A
 * project's .pi/settings.json is ignored there too: its `sessionDir` (`resolveSessionLocations`)
 * and its packages (`detectRelease`).)
 */

export const RESTRICTED_ACTIONS = ['flush', 'autoFlush', 'settings', 'install', 'undo', 'credentials', 'connect', 'actOnPi', 'rename'] as const;
export type RestrictedAction = (typeof RESTRICTED_ACTIONS)[number];

const WHAT: Readonly<Record<RestrictedAction, string>> = {
	flush: 'does not summarize pending batches or compact chains (no summarizer model is called and no session is written)',
	autoFlush: 'does not summarize idle sessions by itself (piCondense.autoFlush.onIdle)',
	settings: 'does not change the contextPrune settings in Pi\'s settings.json',
	// Pi's installer runs npm with whatever npmCommand the settings it merges name.
	install: 'does not start Pi\'s installer (pi install reads settings that can name the program it runs)',
	undo: 'does not undo prunes (no session file is written)',
	credentials: 'does not store API keys in Pi\'s auth.json, nor remove them',
	connect: 'does not install or remove its bridge in Pi (it writes Pi\'s settings.json and puts code Pi loads into Pi\'s folder)',
	actOnPi: 'does not put /pruner commands into a running Pi\'s editor',
	rename: 'does not rename sessions (no session file is written)',
};

/** The message for `action`, or undefined when the workspace is trusted (nothing is refused). */
export function restrictedModeRefusal(action: RestrictedAction, trusted: boolean): string | undefined {
	return trusted ? undefined : `This workspace is in restricted mode, so Pi Condense ${WHAT[action]}. Trust the workspace to allow it.`;
}
