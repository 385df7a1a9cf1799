/**
 * What a repository can change through its workspace: `piCondense.agentDir` and
 * `piCondense.autoFlush.onIdle` are machine settings (a repository's .vscode/settings.json cannot
 * set them), the extension declares what it does in restricted mode, and its refusals there say
 * what is off and how to turn it on.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RESTRICTED_ACTIONS, restrictedModeRefusal } from '../../../src/engine/views/restrictedMode';
import { repoRoot } from '../../support/paths';

interface Manifest {
	readonly capabilities?: { readonly untrustedWorkspaces?: { readonly supported: unknown; readonly description?: string; readonly restrictedConfigurations?: readonly string[] } };
	readonly contributes: { readonly configuration: { readonly properties: Readonly<Record<string, { readonly scope?: string }>> } };
}

const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as Manifest;

describe('workspace trust', () => {
	it('the agent dir and auto-flush settings are machine settings', () => {
		const properties = manifest.contributes.configuration.properties;
		assert.equal(properties['piCondense.agentDir']?.scope, 'machine');
		assert.equal(properties['piCondense.autoFlush.onIdle']?.scope, 'machine');
		// A project must neither move the session index nor turn it off.
		assert.equal(properties['piCondense.sessionIndex.path']?.scope, 'machine');
		assert.equal(properties['piCondense.sessionIndex.enabled']?.scope, 'machine');
	});

	it('declares limited support for untrusted workspaces: what works, what does not, which settings are restricted', () => {
		const untrusted = manifest.capabilities?.untrustedWorkspaces;
		assert.equal(untrusted?.supported, 'limited');
		assert.match(untrusted?.description ?? '', /read-only/);
		assert.match(untrusted?.description ?? '', /summariz/);
		assert.match(untrusted?.description ?? '', /\.pi\/settings\.json/);
		assert.deepEqual([...untrusted?.restrictedConfigurations ?? []].sort(), ['piCondense.agentDir', 'piCondense.autoFlush.onIdle', 'piCondense.sessionIndex.path']);
	});

	it('refuses every write and summarizer call in restricted mode, saying what and how to allow it; nothing when trusted', () => {
		for (const action of RESTRICTED_ACTIONS) {
			assert.equal(restrictedModeRefusal(action, true), undefined, action);
			const refusal = restrictedModeRefusal(action, false) ?? '';
			assert.match(refusal, /^This workspace is in restricted mode, so Pi Condense does not /, action);
			assert.match(refusal, /Trust the workspace/, action);
		}
		assert.match(restrictedModeRefusal('flush', false) ?? '', /summarize/);
		assert.match(restrictedModeRefusal('settings', false) ?? '', /settings\.json/);
	});
});
