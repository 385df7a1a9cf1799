/**
 * Shared by the integration tests: the fixtures the harness wrote (test/harness/integrationFixtures.mjs),
 * the extension's API once it is active, and polling with a deadline.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/host/extensionApi';
import type { RenderReport } from '../../src/shared/protocol';
import { SessionBuilder } from '../support/sessionBuilder';
import { ui } from '../support/workbenchUi';

export const EXTENSION_ID = 'pi-condense.pi-condense-vscode';

export interface FixtureSession {
	readonly path: string;
	readonly id: string;
	readonly cwd: string;
}

export interface Fixtures {
	readonly agentDir: string;
	readonly workspace: string;
	readonly sessionsDir: string;
	readonly basic: FixtureSession;
	readonly largeBulk: FixtureSession;
	readonly realV3: FixtureSession;
	/** Restricted-mode run only: where the workspace's .pi/settings.json `sessionDir` points. */
	readonly redirectedSessionsDir?: string;
}

export function fixtures(): Fixtures {
	const text = process.env.PI_CONDENSE_TEST_FIXTURES;
	assert.ok(text, 'the harness passes PI_CONDENSE_TEST_FIXTURES');
	return JSON.parse(text) as Fixtures;
}

export async function activeApi(): Promise<ExtensionApi> {
	const extension = vscode.extensions.getExtension<ExtensionApi>(EXTENSION_ID);
	assert.ok(extension, `${EXTENSION_ID} is loaded`);
	if (!extension.isActive) {
		await vscode.commands.executeCommand('workbench.view.extension.piCondense');
		await waitUntil(() => extension.isActive, 'the extension to activate');
	}
	// A suite run alone (PI_CONDENSE_TEST_GREP) starts before the first listing has located the agent directory.
	await waitUntil(() => extension.exports.controller.discovery.done, 'the first session listing');
	return extension.exports;
}

/** The preview page's next render report that passes `test`; fails after `timeoutMs`, saying what `lastSeen` gives. */
export function nextRenderReport(api: ExtensionApi, test: (report: RenderReport) => boolean, timeoutMs: number, lastSeen: () => unknown = () => null): Promise<RenderReport> {
	return new Promise((resolve, reject) => {
		const timer = setTimeout(() => {
			subscription.dispose();
			reject(new Error(`no matching render report; last: ${JSON.stringify(lastSeen() ?? null).slice(0, 400)}`));
		}, timeoutMs);
		const subscription = api.contextPreview.onDidReportRender((report) => {
			if (test(report)) {
				clearTimeout(timer);
				subscription.dispose();
				resolve(report);
			}
		});
	});
}

export async function waitUntil(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!(await condition())) {
		if (Date.now() > deadline) {
			assert.fail(`gave up waiting: ${what}`);
		}
		await new Promise((done) => setTimeout(done, 25));
	}
}

/** The `contextPrune` object in the agent dir's settings.json right now. */
export function contextPruneOnDisk(): Record<string, unknown> {
	const settings = JSON.parse(readFileSync(join(fixtures().agentDir, 'settings.json'), 'utf8')) as { contextPrune?: Record<string, unknown> };
	return settings.contextPrune ?? {};
}

/** Everything the extension has logged so far (the files under its log folder, `api.logUri`). */
export function logText(folder: string): string {
	const texts: string[] = [];
	const walk = (dir: string): void => {
		for (const name of existsSync(dir) ? readdirSync(dir) : []) {
			const path = join(dir, name);
			if (statSync(path).isDirectory()) {
				walk(path);
			} else {
				texts.push(readFileSync(path, 'utf8'));
			}
		}
	};
	walk(folder);
	return texts.join('\n');
}

/**
 * Writes a session Pi left a minute ago (quiet enough to write to): one finished `bash` call with
 * `output`, then the agent's reply. Selects it and waits for its one pending batch.
 */
export async function selectIdleSession(api: ExtensionApi, path: string, id: string, prompt: string, output: string): Promise<void> {
	const builder = new SessionBuilder({ id, cwd: fixtures().workspace, timestamp: new Date().toISOString() });
	builder.user(prompt);
	builder.assistant([{ type: 'toolCall', id: `${id}-c1`, name: 'bash', arguments: { command: 'ls -la' } }]);
	builder.toolResult(`${id}-c1`, 'bash', output);
	builder.assistant([{ type: 'text', text: 'Listed.' }]);
	writeFileSync(path, builder.text());
	const aMinuteAgo = new Date(Date.now() - 60_000);
	utimesSync(path, aMinuteAgo, aMinuteAgo);
	await waitUntil(() => api.controller.knowsSession(path), 'the session listed');
	await vscode.commands.executeCommand('piCondense.selectSession', path);
	await waitUntil(() => api.controller.insight()?.pending.length === 1, 'its pending batch read');
}

/**
 * The texts of the notifications as the workbench renders them: the toasts, or, where the toast is
 * already gone or VS Code held it back, the rows of the notification center. None yet: [].
 */
export async function notificationTexts(): Promise<string[]> {
	const read = async (selector: string): Promise<string[]> => {
		const html = JSON.parse(await ui({ action: 'elements', selector }).catch(() => '[]') ?? '[]') as string[];
		return html.map((item) => item.replace(/<[^>]*>/g, '').replace(/&quot;/g, '"').replace(/&amp;/g, '&').replace(/&gt;/g, '>').replace(/&lt;/g, '<'));
	};
	const toasts = await read('.notification-toast .notification-list-item-message');
	if (toasts.length > 0) {
		return toasts;
	}
	await vscode.commands.executeCommand('notifications.showList');
	try {
		return await read('.notifications-center .notification-list-item-message');
	} finally {
		await vscode.commands.executeCommand('notifications.hideList');
	}
}
