/**
 * The extension follows the pi-condense release Pi loads: after `pi update` (the installed package's
 * version changes on disk) the selected session is rendered as the new release (status bar, tooltip);
 * with the package gone it says pi-condense is not installed; `piCondense.release` overrides it.
 * The agent dir is restored to the release that wrote the fixtures (2.0.0) afterwards.
 */
import assert from 'node:assert/strict';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { releaseRules } from '../../src/engine/release/releases';
import type { FlushOutcome } from '../../src/node/flush/flushOutcome';
import { engineView } from './engineExpectations';
import { activeApi, fixtures, waitUntil } from './helpers';

function installedPackage(): string {
	return join(fixtures().agentDir, 'npm', 'node_modules', 'pi-condense');
}

function setInstalledVersion(version: string): void {
	const file = join(installedPackage(), 'package.json');
	const manifest = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
	writeFileSync(file, JSON.stringify({ ...manifest, version }, null, 2) + '\n');
}

function tooltipText(item: vscode.StatusBarItem): string {
	const tooltip = item.tooltip;
	return (typeof tooltip === 'string' ? tooltip : tooltip?.value ?? '').replace(/\\/g, '');
}

describe('following the installed pi-condense release', function () {
	this.timeout(120_000);

	it('re-renders after pi update, says when it is gone, and obeys piCondense.release', async () => {
		const api = await activeApi();
		const { basic } = fixtures();
		await vscode.commands.executeCommand('piCondense.selectSession', basic.path);
		await waitUntil(() => api.controller.insight() !== undefined, 'the basic session read');
		const installed = api.controller.rules.version;
		assert.equal(installed, '2.0.0', 'the agent dir has the release that wrote the fixtures');
		await waitUntil(() => api.statusBar.item.text === engineView(basic.path).statusText, 'the status as 2.0.0 renders it');
		assert.match(tooltipText(api.statusBar.item), /pi-condense 2\.0\.0 \(npm, /);
		try {
			setInstalledVersion('2.9.1');
			await waitUntil(() => api.controller.rules.version === '2.9.1', 'the new version followed without a reload', 30_000);
			const latest = engineView(basic.path, releaseRules('2.9.1')).statusText;
			await waitUntil(() => api.statusBar.item.text === latest, `the status as 2.9.1 renders it: "${latest}" (is "${api.statusBar.item.text}")`);
			await waitUntil(() => /pi-condense 2\.9\.1 \(npm, /.test(tooltipText(api.statusBar.item)), 'the tooltip names 2.9.1');

			renameSync(installedPackage(), `${installedPackage()}.removed`);
			try {
				await waitUntil(() => api.controller.releaseResolution.kind === 'not-installed', 'the removal noticed', 30_000);
				await waitUntil(() => api.statusBar.item.text === 'prune: not installed', `prune: not installed (is "${api.statusBar.item.text}")`);
				assert.match(tooltipText(api.statusBar.item), /pi install npm:pi-condense/);
				assert.equal(api.controller.renderSettings.config.enabled, false, 'Pi\'s own context: nothing pruned');
				const before = readFileSync(basic.path, 'utf8');
				for (const command of ['piCondense.flushNow', 'piCondense.compact']) {
					const outcome = await vscode.commands.executeCommand<FlushOutcome>(command, basic.path);
					assert.equal(outcome?.kind, 'refused', command);
					assert.match(outcome.message, /pi-condense is not installed in Pi.*pi install npm:pi-condense/s, command);
				}
				assert.equal(readFileSync(basic.path, 'utf8'), before, 'nothing written');
			} finally {
				renameSync(`${installedPackage()}.removed`, installedPackage());
			}
			await waitUntil(() => api.controller.releaseResolution.kind === 'followed', 'installed again', 30_000);

			await vscode.workspace.getConfiguration('piCondense').update('release', '2.6.0', vscode.ConfigurationTarget.Global);
			await waitUntil(() => api.controller.rules.version === '2.6.0', 'the override followed');
			assert.match(tooltipText(api.statusBar.item), /pi-condense 2\.6\.0 \(piCondense\.release; installed: pi-condense 2\.9\.1\)/);
		} finally {
			await vscode.workspace.getConfiguration('piCondense').update('release', undefined, vscode.ConfigurationTarget.Global);
			setInstalledVersion(installed);
		}
		await waitUntil(() => api.controller.rules.version === installed, 'back to 2.0.0', 30_000);
		await waitUntil(() => api.statusBar.item.text === engineView(basic.path).statusText, 'the 2.0.0 status again');
	});
});
