/**
 * Every contributed command is registered, and the ones that need no user input run: the /pruner
 * setters change the contextPrune key of Pi's settings.json (validated: a bad argument changes
 * nothing), status and stats report the selected session, and the session, recovery and view
 * commands do what they say.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import * as vscode from 'vscode';
import { statsText } from '../../src/engine/condense';
import { DISABLED_TEXT, ENABLED_TEXT } from '../../src/engine/pruner/prunerTexts';
import { engineView } from './engineExpectations';
import { activeApi, contextPruneOnDisk, EXTENSION_ID, fixtures, notificationTexts, waitUntil } from './helpers';

async function run<T = unknown>(command: string, ...args: unknown[]): Promise<T> {
	return vscode.commands.executeCommand<T>(command, ...args);
}

describe('commands', () => {
	let original: Record<string, unknown>;

	before(async () => {
		const api = await activeApi();
		original = contextPruneOnDisk();
		await run('piCondense.selectSession', fixtures().basic.path);
		await waitUntil(() => api.controller.insight() !== undefined, 'the basic session selected');
		// Selecting reads the row's title even when its project was never expanded in the list.
		await waitUntil(() => api.controller.row(fixtures().basic.path)?.summary !== undefined, 'the basic session\'s title read');
	});

	after(async () => {
		const api = await activeApi();
		await api.controller.updatePruneSettings(() => original);
	});

	it('registers every command the manifest contributes, hides the internal ones from the palette and offers the others when they fit', async () => {
		const manifest = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as {
			contributes: { commands: { command: string; category: string }[]; menus: { commandPalette: { command: string; when: string }[] } };
		};
		const registered = new Set(await vscode.commands.getCommands(true));
		const missing = manifest.contributes.commands.map((command) => command.command).filter((id) => !registered.has(id));
		assert.deepEqual(missing, []);
		assert.ok(manifest.contributes.commands.every((command) => command.category === 'Pi Condense' && command.command.startsWith('piCondense.')));
		const when = new Map(manifest.contributes.menus.commandPalette.map((entry) => [entry.command, entry.when]));
		assert.equal(when.get('piCondense.selectSession'), 'false');
		assert.equal(when.get('piCondense.undoLastPrune'), 'piCondense.canUndoPrune');
		assert.match(when.get('piCondense.enable') ?? '', /!piCondense\.pruningEnabled/);
		assert.match(when.get('piCondense.disable') ?? '', /piCondense\.pruningEnabled/);
	});

	it('on and off write contextPrune.enabled to Pi\'s settings.json and keep the other keys', async () => {
		const settingsPath = join(fixtures().agentDir, 'settings.json');
		assert.equal(await run('piCondense.disable'), DISABLED_TEXT);
		assert.equal(contextPruneOnDisk().enabled, false);
		assert.equal(await run('piCondense.enable'), ENABLED_TEXT);
		assert.equal(contextPruneOnDisk().enabled, true);
		const settings = JSON.parse(readFileSync(settingsPath, 'utf8')) as Record<string, unknown>;
		assert.equal(settings.theme, 'dark', 'other keys of settings.json survive');
		assert.deepEqual(contextPruneOnDisk().chainCompression, original.chainCompression);
	});

	it('the setters save a valid argument and refuse an invalid one', async () => {
		const api = await activeApi();
		await run('piCondense.selectThinking', 'low');
		assert.equal(contextPruneOnDisk().summarizerThinking, 'low');
		assert.equal(await run('piCondense.selectThinking', 'loud'), undefined);
		assert.equal(contextPruneOnDisk().summarizerThinking, 'low');

		await run('piCondense.selectPruneTrigger', 'on-demand');
		assert.equal(contextPruneOnDisk().pruneOn, 'on-demand');
		assert.equal(await run('piCondense.selectPruneTrigger', 'sometimes'), undefined, 'validated, unlike /pruner prune-on');
		assert.equal(contextPruneOnDisk().pruneOn, 'on-demand');

		await run('piCondense.selectBatching', 'agent-message');
		assert.equal(contextPruneOnDisk().batchingMode, 'agent-message');

		await run('piCondense.editProtectedTools', 'bash, read  grep');
		assert.deepEqual(contextPruneOnDisk().protectedTools, ['bash', 'read', 'grep']);
		await run('piCondense.editProtectedTools', 'none');
		assert.deepEqual(contextPruneOnDisk().protectedTools, []);
		await run('piCondense.editProtectedPaths', '**/skills/**/*.md docs/**');
		assert.deepEqual(contextPruneOnDisk().protectedPaths, ['**/skills/**/*.md', 'docs/**']);

		await run('piCondense.setMinBatchChars', 500);
		assert.equal(contextPruneOnDisk().minBatchChars, 500);
		assert.equal(await run('piCondense.setMinBatchChars', '-1'), undefined);
		assert.equal(contextPruneOnDisk().minBatchChars, 500);

		assert.match(await run<string>('piCondense.setDedup', 'status'), /^Dedup by content hash is ON/);
		await run('piCondense.setDedup', 'off');
		assert.equal(contextPruneOnDisk().dedupByContentHash, false);

		assert.equal(await run('piCondense.selectModel', 'fake-llm/fake-model:high'), 'Summarizer model set to fake-llm/fake-model with thinking high.');
		assert.equal(contextPruneOnDisk().summarizerModel, 'fake-llm/fake-model');
		assert.equal(contextPruneOnDisk().summarizerThinking, 'high');
		assert.equal(await run('piCondense.selectModel', 'no-provider'), undefined);
		assert.equal(contextPruneOnDisk().summarizerModel, 'fake-llm/fake-model');
		await waitUntil(() => api.controller.config.summarizerModel === 'fake-llm/fake-model', 'the controller read the change');
		assert.ok(!Object.keys(require.cache).some((path) => path.endsWith(`${join('dist', 'pi-ai.js')}`)), 'setting a model by argument does not load pi-ai');
	});

	it('status and stats report on the selected session', async () => {
		const { basic } = fixtures();
		const status = await run<string>('piCondense.status');
		assert.match(status, /^pruner status:\n {2}enabled: {5}yes/);
		assert.match(status, /--- summarizer ---\n {2}calls: {7}6/);
		assert.ok(status.endsWith('(session "Explore the project: list the files and read the sources.")'), status);
		// The whole report opens as a read-only markdown document (the markdown preview), not a modal: headings, one bullet per setting.
		const report = (): vscode.TextDocument | undefined => vscode.workspace.textDocuments.find((document) => document.uri.toString() === 'pi-condense:/status.md');
		await waitUntil(() => report() !== undefined, 'the status report document opened');
		const markdown = report()?.getText() ?? '';
		assert.match(markdown, /^# Pi Condense status\n/);
		assert.match(markdown, /^## pruner status$/m);
		assert.match(markdown, /^- \*\*enabled:\*\* yes$/m);
		assert.match(markdown, /^- \*\*calls:\*\* 6$/m);
		assert.match(markdown, /^\*\*summarizer models and credentials:\*\* /m);
		assert.match(markdown, /^> Figures of the session \\"Explore the project/m);
		assert.ok(!/: {2,}\S/.test(markdown), `no padded columns: ${markdown}`);
		assert.equal(await run('piCondense.stats'), statsText(engineView(basic.path).state.stats));
	});

	it('while Refresh reads the list again, Show Status and the commands that read the selected session say it is not listed now, and fail nothing', async function () {
		this.timeout(120_000); // the notifications are read from the workbench's page, a few seconds each
		const api = await activeApi();
		const { basic } = fixtures();
		await waitUntil(() => api.controller.selected === basic.path && api.controller.insight() !== undefined, 'the basic session selected');
		// Refresh empties the list before it reads it again, and keeps the selection until then: Show Status
		// is asked for right when the list is empty (the status document is read again the same way).
		await run('notifications.clearAll');
		let during: Promise<string> | undefined;
		let statsDuring: Promise<unknown> | undefined;
		const listening = api.controller.onDidChangeSessions(() => {
			if (during === undefined && api.controller.selected === basic.path && !api.controller.knowsSession(basic.path)) {
				during = run<string>('piCondense.status');
				statsDuring = run('piCondense.stats');
			}
		});
		try {
			await run('piCondense.refresh');
		} finally {
			listening.dispose();
		}
		assert.ok(during, 'Show Status ran while the list was empty');
		const status: unknown = await during;
		assert.ok(typeof status === 'string' && status.endsWith(`(session "${basename(basic.path)}", not listed now)`), `Show Status reported: ${String(status)} (undefined: it failed, see the log)`);
		// A command that needs the session's figures says it is not listed now (a warning), and fails nothing.
		assert.equal(await statsDuring, undefined);
		let texts: string[] = [];
		await waitUntil(async () => (texts = await notificationTexts()).some((text) => text.includes('the selected session is not in Pi Sessions now')), 'the warning of Show Summarizer Stats', 60_000).catch((error: unknown) => {
			throw new Error(`${String(error)}; notifications: ${JSON.stringify(texts)}`);
		});
		assert.deepEqual(texts.filter((text) => text.includes('is not one of the Pi sessions Pi Condense lists')), [], 'no command failed reading the selected session');
		const markdown = vscode.workspace.textDocuments.find((document) => document.uri.toString() === 'pi-condense:/status.md')?.getText() ?? '';
		await waitUntil(() => api.controller.selected === basic.path && api.controller.insight() !== undefined, 'the selection kept after the refresh');
		// Once the list is back, the document follows the selection again, with its figures.
		await waitUntil(() => /^> Figures of the session \\"Explore the project/m.test(vscode.workspace.textDocuments.find((document) => document.uri.toString() === 'pi-condense:/status.md')?.getText() ?? ''), `the status document with its figures again (was: ${markdown})`);
	});

	it('the session commands filter, refresh, open the raw file and say where they looked', async () => {
		const api = await activeApi();
		const { basic, agentDir } = fixtures();
		assert.equal(await run('piCondense.filterSessions', 'explore the PROJECT'), 'explore the PROJECT');
		// A filter reads every row's name and first message (the list reads them lazily).
		const shown = (): string[] => api.sessionsTree.shownProjects().flatMap((project) => project.sessions.map((session) => session.path));
		await waitUntil(() => shown().length === 1, 'the filter applied to every row');
		assert.deepEqual(shown(), [basic.path]);
		await run('piCondense.clearSessionFilter');
		assert.equal(api.sessionsTree.shownProjects().length, 3);
		assert.equal(await run('piCondense.refresh'), 3);
		await waitUntil(() => api.controller.selected === basic.path && api.controller.insight() !== undefined, 'the selection kept after a refresh');
		assert.equal(await run('piCondense.openSessionFile'), basic.path);
		assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, basic.path);
		assert.match(await run<string>('piCondense.showSearchedFolders'), new RegExp(`^Pi agent directory: ${agentDir}\\nSearched ${join(agentDir, 'sessions')}`));
		assert.equal(await run('piCondense.showTree'), basic.path);
		await run('piCondense.openPreview');
		await run('piCondense.openSession', basic.path);
		assert.equal(api.controller.selected, basic.path);
	});

	it('the recovery commands copy refs, open summaries as markdown and open spilled blobs', async () => {
		const api = await activeApi();
		const { basic } = fixtures();
		await waitUntil(async () => await api.prunedTree.findRef('t3') !== undefined, 'the pruned calls shown');
		assert.equal(await run('piCondense.copyRef', await api.prunedTree.findRef('t3')), 't3');
		assert.equal(await vscode.env.clipboard.readText(), 't3');
		const summary = api.prunedTree.rootNodes.find((node) => node.data.kind === 'summary')!;
		const summaryUri = await run<string>('piCondense.openSummary', summary);
		const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(summaryUri));
		assert.equal(document.getText(), engineView(basic.path).state.summaries[0]?.text);
		const spilled = (await api.prunedTree.findRef('call_p1_t2_0'))!;
		assert.equal(spilled.data.kind, 'spilled');
		const blob = await run<string>('piCondense.openBlob', spilled);
		assert.ok(blob.endsWith(join(`${basic.id}-blobs`, 'call_p1_t2_0.txt')), blob);
		const help = await run<string>('piCondense.help');
		assert.match((await vscode.workspace.openTextDocument(vscode.Uri.parse(help))).getText(), /\| Pi Condense: Turn Pruning On \| `\/pruner on` \|/);
	});
});
