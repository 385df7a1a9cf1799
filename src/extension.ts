/**
 * Composition root: builds the logger, the node services and the one SessionController, and hands
 * them to the host classes. No work proportional to the number of sessions happens here (listing
 * starts in the background) and pi-ai is not loaded.
 *
 * Shutting down: every object that runs work over time owns a scope under one root (`src/work/`),
 * and `deactivate` closes the root: a running flush is aborted, the views' computations, the Last
 * sent render, the watchers, the bridges' scans and connections and the pi-ai worker stop, and it
 * resolves once all of it has ended. The internal objects are handed out only to the integration
 * tests (`ExtensionMode.Test`); other extensions get nothing.
 */
import { join } from 'node:path';
import * as vscode from 'vscode';
import { describeOrigin } from './node/llm/library/modelLibrary';
import { expectedPiAi } from './node/llm/piAiLoader';
import { PiAiWorker } from './node/llm/worker/piAiWorker';
import { installedPiAiPolicy } from './host/piAiPolicy';
import { SessionStore } from './node/store/sessionStore';
import { LoginShellSource } from './node/paths/loginShellSource';
import { registerCommands } from './host/commands/registerCommands';
import type { ExtensionApi } from './host/extensionApi';
import { ExtensionSettings } from './host/extensionConfig';
import { FlushServices } from './host/flush/flushServices';
import { ContextKeys } from './host/contextKeys';
import { ContextPreview } from './host/preview/contextPreview';
import { ControllerSessionFeed } from './host/controllerSessionFeed';
import { ProblemReporter } from './host/problemReporter';
import { PruneDocumentProvider } from './host/recovery/pruneDocumentProvider';
import { HOVER_SELECTOR, RefHoverProvider } from './host/recovery/refHoverProvider';
import { SessionController } from './host/sessionController';
import { fileWorkspaceFolders, SessionLocator } from './host/sessionLocator';
import { PruneStatusBar } from './host/statusBar/pruneStatusBar';
import { SessionAnnotations } from './host/annotations/sessionAnnotations';
import { PrunedCallsTreeProvider } from './host/tree/prunedCallsTreeProvider';
import { SessionsTreeProvider } from './host/tree/sessionsTreeProvider';
import { errorMessage } from './base/errorMessage';
import { compareRequests, openLastSent, prunerInPi, registerBridgeCommands, type BridgeCommandContext } from './host/commands/bridgeCommands';
import { openRecovered } from './host/commands/recoveryCommands';
import { composeStatusReport, statusMarkdown } from './host/commands/statusReport';
import { PruneRequests } from './host/flush/pruneRequests';
import { BridgeInstallState } from './host/live/bridgeInstallState';
import { LastSentDocuments } from './host/live/lastSentDocuments';
import { LastSentTracker } from './host/live/lastSentTracker';
import { RequestHistory } from './node/bridge/requestHistory';
import { LiveSessions } from './host/live/liveSessions';
import { WorkScope } from './work';
import { indexPlace } from './host/history/sessionIndexPlace';
import { SessionIndexUi } from './host/history/sessionIndexUi';
import { PiCostsTreeProvider } from './host/history/piCostsTree';
import { SessionSearch } from './host/history/sessionSearch';
import { PruningCounter } from './host/history/pruningCounter';

/** The root of everything `activate` started that runs over time; set while active. */
let root: WorkScope | undefined;

export function activate(context: vscode.ExtensionContext): ExtensionApi | undefined {
	const started = performance.now();
	const logger = vscode.window.createOutputChannel('Pi Condense', { log: true });
	const work = WorkScope.root('Pi Condense', (where, error) => logger.error(`${where}: ${errorMessage(error)}`));
	root = work;
	const distDir = join(context.extensionPath, 'dist');
	// Where a terminal finds pi: the login shell's PATH, asked once a process may run (a trusted workspace).
	const loginShell = new LoginShellSource(work.child('login shell'), process.env);
	loginShell.onDidChange((state) => state.kind === 'unavailable' && logger.info(`login shell PATH: ${state.reason}`));
	// The only way to pi-ai: a worker thread, started on first use (prices, a flush, the model list). Which
	// pi-ai (the installed Pi's, in a trusted workspace) is said in the log when it loads.
	const piAi = new PiAiWorker({
		distDir, installedPiAi: () => installedPiAiPolicy(loginShell.current),
		onLibrary: (origin) => logger.info(`summarizer models and credentials: ${describeOrigin(origin)}`),
	});
	work.onClose(() => piAi.dispose());
	const summarizerLibrary = async (): Promise<string> => {
		const loaded = piAi.origin;
		return loaded ? describeOrigin(loaded) : expectedPiAi(installedPiAiPolicy(loginShell.current));
	};
	const settings = new ExtensionSettings();
	const locator = new SessionLocator(settings);
	const store = new SessionStore({
		work: work.child('sessions'),
		locate: () => locator.locate(), logger, releaseChoice: settings.current.release, projectSettingsAllowed: () => vscode.workspace.isTrusted,
		// What the status bar shows before any session is selected: the workspace's project.
		scopeCwd: () => fileWorkspaceFolders()[0], loginShell,
		workspaceFolders: fileWorkspaceFolders,
		// The session index of every session (docs/session-index.md), on a thread of its own; read at each start.
		sessionIndex: () => {
			const place = indexPlace(settings.current.sessionIndex);
			if (place.kind === 'off') {
				logger.info(`session index: off (${place.why}); sessions are listed by reading their files`);
				return undefined;
			}
			return { path: place.path, ownFolder: place.ownFolder, distDir, notify: (notice) => indexUi.notify(notice) };
		},
	});
	const controller = new SessionController({ work: work.child('controller'), store, logger, memento: context.workspaceState });
	const indexUi = new SessionIndexUi(controller, logger);
	// Running Pis with our bridge: read from private runtime folders, connected in the background.
	const live = new LiveSessions(work.child('bridges'), logger);
	// The last requests of each live session, kept in memory for Compare with Previous Request.
	const requests = new RequestHistory({
		work: work.child('requests'), bridges: live.bridges, keep: () => settings.current.keptRequests,
		log: { debug: (message) => logger.debug(message), warn: (message) => logger.warn(message) },
	});
	const lastSent = new LastSentTracker(work.child('last sent'), controller, live, logger, requests);
	const lastSentDocuments = new LastSentDocuments(work.child('request documents'), requests);
	const sessionsTree = new SessionsTreeProvider(work.child('sessions view'), controller, settings, live);
	const prunedTree = new PrunedCallsTreeProvider(work.child('pruned calls'), controller, logger);
	const costsTree = new PiCostsTreeProvider(work.child('pi costs'), controller, store.onDidChange, (message) => logger.warn(message));
	const statusBar = new PruneStatusBar({ controller, settings, live });
	const problems = new ProblemReporter(controller, logger);
	const flush = new FlushServices({
		work: work.child('flush'),
		controller, logger, settings, summarizers: piAi.summarizers, lookUpModel: piAi.lookUp, planSummarizer: piAi.planSummarizer, memento: context.workspaceState,
		secrets: context.secrets, checkPiHolders: live.holders,
	});
	const bridgeSource = join(distDir, 'bridge');
	const bridgeInstall = new BridgeInstallState(work.child('bridge install'), () => controller.discovery.locations?.agentDir, (message) => logger.warn(message));
	const contextKeys = new ContextKeys(controller, live, bridgeInstall, requests);
	// `/pruner now` and `compact`, from the palette and from the page: a live Pi's editor, else a flush here.
	const prune: PruneRequests = new PruneRequests({ runner: flush.runner, settings, log: (message) => logger.info(message), inPi: (mode, path): Promise<string | undefined> => prunerInPi(commands, mode, path) });
	const sessionSearch = new SessionSearch(work.child('session search'), controller);
	const pruningCounter = new PruningCounter(work.child('count pruning'), controller, piAi.lookUp, (message) => logger.info(message));
	const commands: BridgeCommandContext = {
		controller, settings, logger, sessionsTree, prunedTree, listModels: piAi.listModels, summarizerLibrary, prune, undo: flush.undo, keys: flush.keys, monitor: flush.monitor,
		sessionSearch, pruningCounter, renamer: flush.renamer, live, lastSentDocuments, bridgeSource, bridgeInstall, refreshStatusDocument: () => documents.refreshStatus(), loginShell: () => loginShell.current,
	};
	const documents = new PruneDocumentProvider(controller, async () => statusMarkdown(await composeStatusReport(commands)));
	// The page's buttons and links do what the commands do, through typed calls.
	const sessionFeed = new ControllerSessionFeed(controller, piAi.lookUp, {
		prune: (mode, path) => prune.run(mode, path),
		openRecovered,
		openLastSent: (path) => openLastSent(commands, path),
		compareRequests: (path) => compareRequests(commands, path),
	}, lastSent);
	const annotations = new SessionAnnotations(work.child('annotations'), controller, settings, (message) => logger.warn(message));
	const testRun = context.extensionMode === vscode.ExtensionMode.Test;
	const contextPreview = new ContextPreview({ work: work.child('preview'), source: sessionFeed, extensionUri: context.extensionUri, reportRenders: testRun, log: (message) => logger.warn(message), debug: (message) => logger.debug(message) });
	context.subscriptions.push(
		logger, settings, controller, live, lastSent, lastSentDocuments, sessionsTree, prunedTree, costsTree, statusBar, sessionFeed, contextPreview, problems, flush,
		bridgeInstall, annotations, contextKeys, indexUi,
		documents,
		vscode.languages.registerHoverProvider(HOVER_SELECTOR, new RefHoverProvider(controller)),
		...registerCommands(commands),
		...registerBridgeCommands(commands),
		// Pi's settings read again, another agent dir, a Pi with a bridge come or gone: is the bridge (still) installed?
		controller.onDidChangeSettings(() => void bridgeInstall.refresh()),
		live.onDidChange(() => void bridgeInstall.refresh()),
		settings.onDidChange(({ current, previous }) => current.agentDir !== previous.agentDir
			&& controller.restart().catch((error: unknown) => logger.error(`restart: ${errorMessage(error)}`))),
		settings.onDidChange(({ current, previous }) => current.release !== previous.release && controller.setReleaseChoice(current.release)),
		settings.onDidChange(({ current, previous }) => current.keptRequests !== previous.keptRequests && requests.trim()),
		// Trusted now: a project's .pi/settings.json may choose where sessions are read from and which pi-condense is followed.
		vscode.workspace.onDidGrantWorkspaceTrust(() => loginShell.read()),
		vscode.workspace.onDidGrantWorkspaceTrust(() => void controller.restart().catch((error: unknown) => logger.error(`restart: ${errorMessage(error)}`))),
		// Also when VS Code disposes without calling deactivate.
		{ dispose: () => void work.close() },
	);
	controller.start().then(() => problems.reportSettings(), (error: unknown) => logger.error(`listing sessions: ${errorMessage(error)}`));
	if (vscode.workspace.isTrusted) {
		loginShell.read();
	}
	live.start();
	const activationMs = performance.now() - started;
	logger.info(`activated in ${activationMs.toFixed(1)} ms (pi-ai not loaded)`);
	return testRun ? { controller, sessionsTree, prunedTree, costsTree, statusBar, sessionFeed, contextPreview, problems, flush, live, lastSent, requests, contextKeys, sessionSearch, annotations, activationMs, logUri: context.logUri } : undefined;
}

/** VS Code awaits this (for a few seconds) before disposing `context.subscriptions`: nothing of ours runs once it resolves. */
export async function deactivate(): Promise<void> {
	const closing = root;
	root = undefined;
	await closing?.close();
}
