/**
 * Which Pi, found as a terminal finds it: the harness puts a real Pi 1.6.0 (a link to the dev dependency's
 * `pi`) on the PATH of its login shell (`SHELL`) only, and none on the extension host's own PATH. The
 * status tooltip and Show Status name that Pi, its folder and how it was found.
 */
import assert from 'node:assert/strict';
import { dirname } from 'node:path';
import * as vscode from 'vscode';
import { findPiOnPath } from '../../src/node/release/piOnPath';
import { activeApi, waitUntil } from './helpers';

describe('the Pi a terminal runs', function () {
	this.timeout(60_000);

	it('is found on the login shell\'s PATH, though VS Code\'s has no pi, and named with its folder in the tooltip and Show Status', async () => {
		assert.equal(await findPiOnPath(process.env), undefined, 'the extension host\'s PATH has no pi');
		const installed = process.env['PI_CONDENSE_TEST_INSTALLED_PI'] ?? '';
		assert.ok(installed, 'the harness installed a Pi');
		const api = await activeApi();
		await waitUntil(() => api.controller.releaseResolution.pi?.foundBy === 'login-shell-path', 'Pi found on the login shell\'s PATH');
		const pi = api.controller.releaseResolution.pi;
		assert.equal(pi?.version, '1.6.0');
		assert.equal(dirname(pi.packageJsonPath), installed);
		const where = `Pi 1.6.0 · ${installed} · found by pi on your login shell's PATH, as a terminal finds it`;
		await waitUntil(() => tooltipOf(api.statusBar.item).includes(where), `the tooltip says "${where}"`);
		assert.equal(tooltipOf(api.statusBar.item).split('Pi 1.6.0').length - 1, 1, 'the tooltip names Pi once, on its own line');
		const status = await vscode.commands.executeCommand<string>('piCondense.status');
		assert.ok(status.includes(`\nPi: 1.6.0 (@earendil-works/pi-coding-agent, ${installed}/package.json, found by pi on your login shell's PATH, as a terminal finds it)\n`), status);
	});
});

/** The tooltip's text, markdown escapes removed. */
function tooltipOf(item: vscode.StatusBarItem): string {
	const tooltip = item.tooltip;
	return (typeof tooltip === 'string' ? tooltip : tooltip?.value ?? '').replace(/\\/g, '');
}
