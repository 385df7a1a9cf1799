/**
 * Composition root: builds the logger, the node services and the one SessionController, and hands
 * them to the host classes. No work proportional to the number of sessions happens here (listing
 * starts in the background) and pi-ai is not loaded.
 */
import { join } from 'node:path';
import * as vscode from 'vscode';
import { createPiAiLoader } from './node/llm/piAiLoader';
import { SessionStore } from './node/store/sessionStore';
import { registerCommands } from './host/commands/registerCommands';
import { onDidChangeExtensionConfig, readExtensionConfig, type ExtensionConfig } from './host/extensionConfig';
import type { ExtensionApi } from './host/extensionApi';
import { PreviewSourceAdapter } from './host/previewSourceAdapter';
import { ProblemReporter } from './host/problemReporter';
import { PruneDocumentProvider } from './host/recovery/pruneDocumentProvider';
import { HOVER_SELECTOR, RefHoverProvider } from './host/recovery/refHoverProvider';
import { SessionController } from './host/sessionController';
import { SessionLocator } from './host/sessionLocator';
import { PruneStatusBar } from './host/statusBar/pruneStatusBar';
import { PrunedCallsTreeProvider } from './host/tree/prunedCallsTreeProvider';
import { SessionsTreeProvider } from './host/tree/sessionsTreeProvider';

export function activate(context: vscode.ExtensionContext): ExtensionApi {
	const started = performance.now();
	const logger = vscode.window.createOutputChannel('Pi Condense', { log: true });
	const locator = new SessionLocator();
	const store = new SessionStore({ locate: () => locator.locate(), logger });
	const controller = new SessionController({ store, logger, memento: context.workspaceState });
	const loadPiAi = createPiAiLoader(join(context.extensionPath, 'dist'));
	const configEvents = new vscode.EventEmitter<ExtensionConfig>();
	const sessionsTree = new SessionsTreeProvider(controller);
	const prunedTree = new PrunedCallsTreeProvider(controller);
	const statusBar = new PruneStatusBar({ controller, extensionConfig: readExtensionConfig, onDidChangeExtensionConfig: configEvents.event });
	const previewSource = new PreviewSourceAdapter(controller, loadPiAi);
	const problems = new ProblemReporter(controller, logger);
	let agentDir = readExtensionConfig().agentDir;
	context.subscriptions.push(
		logger, configEvents, controller, sessionsTree, prunedTree, statusBar, previewSource, problems,
		new PruneDocumentProvider(controller),
		vscode.languages.registerHoverProvider(HOVER_SELECTOR, new RefHoverProvider(controller)),
		...registerCommands({ controller, logger, sessionsTree, prunedTree, loadPiAi }),
		onDidChangeExtensionConfig((config) => {
			configEvents.fire(config);
			if (config.agentDir !== agentDir) {
				agentDir = config.agentDir;
				controller.restart().catch((error: unknown) => logger.error(`restart: ${String(error)}`));
			}
		}),
		{ dispose: () => void store.close() },
	);
	controller.start().then(() => problems.reportSettings(), (error: unknown) => logger.error(`listing sessions: ${String(error)}`));
	const activationMs = performance.now() - started;
	logger.info(`activated in ${activationMs.toFixed(1)} ms (pi-ai not loaded)`);
	return { controller, sessionsTree, prunedTree, statusBar, previewSource, problems, activationMs };
}

export function deactivate(): void {
	// Everything is released through context.subscriptions.
}
