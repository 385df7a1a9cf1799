/**
 * What `activate` returns in test runs (`ExtensionMode.Test`) only: the host objects, for the
 * integration tests. In any other run `activate` returns nothing, so no other extension reaches them.
 */
import type * as vscode from 'vscode';
import type { ContextKeys } from './contextKeys';
import type { FlushServices } from './flush/flushServices';
import type { LastSentTracker } from './live/lastSentTracker';
import type { LiveSessions } from './live/liveSessions';
import type { RequestHistory } from '../node/bridge/requestHistory';
import type { ContextPreview } from './preview/contextPreview';
import type { ControllerSessionFeed } from './controllerSessionFeed';
import type { ProblemReporter } from './problemReporter';
import type { SessionController } from './sessionController';
import type { PruneStatusBar } from './statusBar/pruneStatusBar';
import type { PrunedCallsTreeProvider } from './tree/prunedCallsTreeProvider';
import type { PiCostsTreeProvider } from './history/piCostsTree';
import type { SessionsTreeProvider } from './tree/sessionsTreeProvider';
import type { SessionSearch } from './history/sessionSearch';
import type { SessionAnnotations } from './annotations/sessionAnnotations';

export interface ExtensionApi {
	readonly controller: SessionController;
	readonly sessionsTree: SessionsTreeProvider;
	readonly costsTree: PiCostsTreeProvider;
	readonly prunedTree: PrunedCallsTreeProvider;
	readonly statusBar: PruneStatusBar;
	readonly sessionFeed: ControllerSessionFeed;
	readonly contextPreview: ContextPreview;
	readonly problems: ProblemReporter;
	readonly flush: FlushServices;
	/** Running Pis seen through their bridges, and the last request of the one holding the selected session. */
	readonly live: LiveSessions;
	readonly lastSent: LastSentTracker;
	/** The requests kept per live session (Compare with Previous Request). */
	readonly requests: RequestHistory;
	/** The palette's context keys as last set (VS Code has no getter for them). */
	readonly contextKeys: ContextKeys;
	/** Search Pi Sessions… (what its pick shows). */
	readonly sessionSearch: SessionSearch;
	/** The annotations of open session files (what each editor shows, which lines were computed). */
	readonly annotations: SessionAnnotations;
	/** How long `activate` took, in milliseconds. */
	readonly activationMs: number;
	/** The folder of the extension's log files (the secret-leak test searches them). */
	readonly logUri: vscode.Uri;
}
