/**
 * What the session store is given (`SessionStoreOptions`: its scope, where to look, the settings it
 * follows) and what it tells its listeners (`StoreChange`). The host's SessionController builds the
 * one and follows the other.
 */
import type { Logger } from '../../engine/ports';
import type { HistoryServiceOptions } from '../history/service/historyService';
import type { LoginShellSource } from '../paths/loginShellSource';
import type { SessionLocations } from '../sessions/sessionLocations';
import type { PruneSettings } from '../settings/readPruneSettings';
import type { WorkScope } from '../../work';
import type { FileEventChange } from './storeFileEvents';
import type { IndexState } from './storeIndex';

export type StoreChange = FileEventChange
	| { readonly kind: 'settings'; readonly settings: PruneSettings }
	/** What the session index does changed (a build's progress, ready, stopped, off). */
	| { readonly kind: 'index'; readonly state: IndexState }
	/** The index keeps a session's prune accounts now (the history's costs count its pruning). */
	| { readonly kind: 'accounts'; readonly path: string };

export interface SessionStoreOptions {
	/**
	 * The store's own scope: the watchers, the settings and release sources, the background reads
	 * and the open sessions' reads run under it, and closing it stops them all.
	 */
	readonly work: WorkScope;
	/** Where to look: called on start and on every restart (the agent dir setting changed). */
	readonly locate: () => Promise<SessionLocations>;
	readonly logger: Logger;
	/** Sessions kept in memory besides the selected one. Default 3. */
	readonly openCapacity?: number;
	/** Files above this size get no background reclaim figure. Default 64 MB. */
	readonly reclaimMaxBytes?: number;
	/** The `piCondense.release` value (`auto` or a known release) at start; `setReleaseChoice` changes it. */
	readonly releaseChoice?: unknown;
	/**
	 * Whether a project's `.pi/settings.json` may be followed at all (read at each start): VS Code's
	 * workspace trust. Pi's trust.json must trust the project too.
	 */
	readonly projectSettingsAllowed: () => boolean;
	/**
	 * The project whose release and settings apply while no session is selected (the first workspace
	 * folder; undefined for the user's Pi alone): resolved at start, before the first listing, so that
	 * the status bar is right from the first moment.
	 */
	readonly scopeCwd?: () => string | undefined;
	/** Folders the installed Pi is never followed into (read at each start): the open workspace folders. */
	readonly workspaceFolders?: () => readonly string[];
	/** The login shell's PATH, where the installed Pi is looked for first. */
	readonly loginShell?: LoginShellSource;
	/** Where the session index is (read at each start); undefined: no index, sessions are read from their files. */
	readonly sessionIndex?: () => HistoryServiceOptions | undefined;
}
