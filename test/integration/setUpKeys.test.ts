/**
 * A key "Set up a key…" saved in Pi's auth.json, and Remove the Key Set up by Pi Condense in the real
 * extension host: the key goes in beside every other entry and the file ends 0600; a file that does not
 * parse is left byte for byte; the command puts the previous bytes back while nothing else changed the
 * file, and otherwise removes only that provider's entry, after a confirmation (which an extension test
 * run's workbench refuses: then nothing is removed), given here as the command's argument.
 */
import assert from 'node:assert/strict';
import { chmodSync, existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/host/extensionApi';
import { activeApi, fixtures } from './helpers';

const KEY = 'sk-SENTINEL-setup-9b7e2c';
const BEFORE = '{\n  "google": { "type": "api_key", "key": "$GEMINI_KEY" }\n}\n';

describe('Set up a key and Remove the Key Set up by Pi Condense', function () {
	this.timeout(60_000);
	let api: ExtensionApi;
	let saved: Buffer | undefined;
	const authPath = (): string => join(fixtures().agentDir, 'auth.json');
	const text = (): string => readFileSync(authPath(), 'utf8');

	before(async () => {
		api = await activeApi();
		saved = existsSync(authPath()) ? readFileSync(authPath()) : undefined;
	});
	after(() => {
		if (saved === undefined) {
			rmSync(authPath(), { force: true });
		} else {
			writeFileSync(authPath(), saved, { mode: 0o600 });
		}
	});

	it('saves the key beside the other entries, 0600 after, and the command puts the file back byte for byte', async () => {
		writeFileSync(authPath(), BEFORE);
		chmodSync(authPath(), 0o644);
		const stored = await api.flush.keys.store(fixtures().agentDir, 'openai', KEY);
		assert.equal(stored.modeWas, 0o644);
		assert.equal(statSync(authPath()).mode & 0o777, 0o600);
		assert.deepEqual(JSON.parse(text()), { google: { type: 'api_key', key: '$GEMINI_KEY' }, openai: { type: 'api_key', key: KEY } });
		assert.deepEqual((await api.flush.keys.list()).map((record) => record.provider), ['openai']);
		const told = await vscode.commands.executeCommand<string>('piCondense.removeSetUpKey');
		assert.match(told, /removed the key for "openai": .*auth\.json is again, byte for byte, what it was before/);
		assert.equal(text(), BEFORE);
		assert.deepEqual(await api.flush.keys.list(), [], 'nothing left to remove');
	});

	it('once the file changed, removes only that entry, and only when confirmed', async () => {
		writeFileSync(authPath(), BEFORE, { mode: 0o600 });
		await api.flush.keys.store(fixtures().agentDir, 'openai', KEY);
		const changed = { ...JSON.parse(text()) as Record<string, unknown>, anthropic: { type: 'oauth', access: 'a', refresh: 'r', expires: 1 } };
		writeFileSync(authPath(), JSON.stringify(changed, null, 2));
		// The confirmation is a modal dialog, which this workbench refuses: a "no".
		assert.equal(await vscode.commands.executeCommand('piCondense.removeSetUpKey'), undefined);
		assert.deepEqual(JSON.parse(text()), changed);
		const told = await vscode.commands.executeCommand<string>('piCondense.removeSetUpKey', 'openai', 'confirmed');
		assert.match(told, /removed the "openai" entry from .*auth\.json; every other key and login is kept/);
		assert.deepEqual(JSON.parse(text()), { google: { type: 'api_key', key: '$GEMINI_KEY' }, anthropic: { type: 'oauth', access: 'a', refresh: 'r', expires: 1 } });
	});

	it('never writes over an auth.json that does not parse, saying which file and where', async () => {
		const broken = '{\n  "google": { "type": "api_key", "key": "k" },\n}\n';
		writeFileSync(authPath(), broken, { mode: 0o600 });
		await assert.rejects(api.flush.keys.store(fixtures().agentDir, 'openai', KEY), /auth\.json is not valid JSON at line 3, column 1, so Pi Condense did not change it/);
		assert.equal(text(), broken);
		assert.deepEqual(await api.flush.keys.list(), []);
	});
});
