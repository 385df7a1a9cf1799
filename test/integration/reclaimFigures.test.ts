/**
 * One reclaim figure, named, on every surface (issue 38, point 1): for three sessions (one of Pi 0.x with
 * pi-condense 2.0.0's entries, a large one with many summaries, and one written by Pi 1.6.0 with its system prompt),
 * the status bar's figure, its tooltip, the session's row, the context preview and the command line's
 * `preview` give the same two measures: pi-condense's (the conversation) first, then the whole request.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/host/extensionApi';
import { piCondenseSessionsDir, repoRoot } from '../support/paths';
import { activeApi, fixtures, nextRenderReport, waitUntil } from './helpers';

const LINE = /(Conversation \(pi-condense's figure\)|Whole request \(with the system prompt\)): ([\d.]+k?) → ([\d.]+k?) tokens, (\d+)% less/g;

/** The named measures a text gives, in order: `name before→after percent`. */
function measuresIn(text: string): string[] {
	return [...text.matchAll(LINE)].map((match) => `${match[1]} ${match[2]}→${match[3]} ${match[4]}%`);
}

describe('one reclaim figure, named, on every surface', function () {
	this.timeout(180_000);
	let api: ExtensionApi;
	const folder = (): string => join(fixtures().sessionsDir, '--reclaim-figures--');
	const pi16 = (): string => join(folder(), '2026-11-01T00-00-00-000Z_pi16-figures.jsonl');

	before(async () => {
		api = await activeApi();
		mkdirSync(folder(), { recursive: true });
		copyFileSync(join(piCondenseSessionsDir, 'batching-pi-1.6.0', 'session.jsonl'), pi16());
		const old = new Date(Date.now() - 86_400_000);
		utimesSync(pi16(), old, old);
		await waitUntil(() => api.controller.knowsSession(pi16()), 'the Pi 1.6.0 session listed');
	});

	after(async () => {
		api.contextPreview.webviewPanel?.dispose();
		rmSync(folder(), { recursive: true, force: true });
		await waitUntil(() => !api.controller.knowsSession(pi16()), 'the test session unlisted');
		await vscode.commands.executeCommand('piCondense.selectSession', fixtures().basic.path);
	});

	for (const which of ['basic', 'largeBulk', 'pi16'] as const) {
		it(`${which}: the status bar, its tooltip, the row, the preview and the command line agree`, async () => {
			const path = which === 'pi16' ? pi16() : fixtures()[which].path;
			await vscode.commands.executeCommand('piCondense.selectSession', path);
			await waitUntil(() => api.controller.selected === path && api.controller.insight() !== undefined && /\(-\d+%\)/.test(api.statusBar.item.text), `the status bar's figure (is "${api.statusBar.item.text}")`, 60_000);
			api.contextPreview.webviewPanel?.dispose();
			const report = nextRenderReport(api, (r) => r.cause === 'snapshot' && r.sessionPath === path, 90_000);
			await vscode.commands.executeCommand('piCondense.openPreview');
			const preview = await report;
			const status = Number(/\(-(\d+)%\)/.exec(api.statusBar.item.text)?.[1]);
			const tooltip = api.statusBar.item.tooltip;
			const tooltipText = (typeof tooltip === 'string' ? tooltip : tooltip?.value ?? '').replace(/\\/g, '');
			const shown = measuresIn(tooltipText);
			assert.equal(shown.length, 2, tooltipText);
			assert.ok(shown[0]?.startsWith('Conversation') && shown[1]?.startsWith('Whole request'), 'named, pi-condense\'s first');
			assert.ok(shown[0]?.endsWith(` ${status}%`), `the tooltip's headline is the status bar's figure: ${shown[0]} vs ${status}%`);
			assert.equal(preview.values['conversation.percent'], status, 'the preview\'s headline');
			assert.ok(shown[1]?.endsWith(` ${preview.values['totals.percent']}%`), `the whole request as the preview has it: ${shown[1]}`);

			const row = (): { description: string; details: readonly string[] } | undefined => api.sessionsTree.shownProjects().flatMap((project) => project.sessions).find((session) => session.path === path);
			await api.sessionsTree.revealSession(path);
			await waitUntil(() => /-\d+%/.test(row()?.description ?? ''), `the row's figure (is "${row()?.description}")`, 60_000);
			assert.ok(row()?.description.endsWith(`-${status}%`), row()?.description);
			assert.deepEqual(measuresIn(row()?.details.join('\n') ?? ''), shown, 'the row\'s tooltip');

			const cli = spawnSync(process.execPath, [join(repoRoot, 'dist', 'cli.js'), 'preview', path, '--agent-dir', fixtures().agentDir], { encoding: 'utf8', env: { ...process.env, PI_CONDENSE_INDEX: 'off' } });
			assert.equal(cli.status, 0, cli.stderr);
			assert.deepEqual(measuresIn(cli.stdout.split('\n').slice(0, 3).join('\n')), shown, 'the command line\'s preview');
			if (which === 'pi16') {
				assert.notEqual(shown[0]?.split(' ').at(-2), shown[1]?.split(' ').at(-2), 'with a system prompt the two measures differ');
			}
		});
	}
});
