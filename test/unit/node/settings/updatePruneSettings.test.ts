import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, lstatSync, mkdirSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import { setConfigKey } from '../../../../src/engine/config/setConfigKey';
import { releaseDefaults } from '../../../../src/engine/config/defaults';
import { readPruneSettings } from '../../../../src/node/settings/readPruneSettings';
import { SettingsWriteError, updatePruneSettings } from '../../../../src/node/settings/updatePruneSettings';
import { repoRoot } from '../../../support/paths';
import { useTempDir } from '../../../support/tempDirs';
import { LATEST } from '../../../support/releases';

const otherSettings = {
	defaultProvider: 'anthropic',
	defaultModel: 'claude-sonnet-4-5',
	packages: ['npm:pi-condense'],
	retry: { enabled: true, provider: { maxRetryDelayMs: 60000 } },
	sessionDir: '~/sessions',
};

describe('updatePruneSettings', function () {
	this.timeout(30_000);
	const temp = useTempDir('update-settings');
	const settingsFile = (): string => join(temp(), 'settings.json');
	const readJson = (): Record<string, unknown> => JSON.parse(readFileSync(settingsFile(), 'utf8')) as Record<string, unknown>;

	async function expectRefusal(kind: string, pattern: RegExp): Promise<void> {
		const before = readFileSync(settingsFile());
		await assert.rejects(updatePruneSettings(temp(), () => ({ enabled: true })), (error: unknown) => {
			assert.ok(error instanceof SettingsWriteError);
			assert.equal(error.kind, kind);
			assert.match(error.message, pattern);
			return true;
		});
		assert.ok(readFileSync(settingsFile()).equals(before), 'the file is left byte-identical');
		assert.deepEqual(readdirSync(temp()).sort(), ['settings.json'], 'no lock or temp file left behind');
	}

	it('replaces only contextPrune, keeping every other key, its value and the key order, in Pi\'s format', async () => {
		writeFileSync(settingsFile(), JSON.stringify({ ...otherSettings, contextPrune: { enabled: false, future: [1] }, theme: 'dark' }, null, 2));
		const result = await updatePruneSettings(temp(), (current) => setConfigKey(current, 'chainCompression.rollingWindow', 5, releaseDefaults(LATEST)));
		assert.equal(result.created, false);
		assert.equal(result.attempts, 1);
		const after = readJson();
		assert.deepEqual(after, { ...otherSettings, contextPrune: { enabled: false, future: [1], chainCompression: { enabled: true, rollingWindow: 5, stripFinalAssistantThinking: true, fuseRangeSummary: true } }, theme: 'dark' });
		assert.deepEqual(Object.keys(after), [...Object.keys(otherSettings), 'contextPrune', 'theme']);
		assert.equal(readFileSync(settingsFile(), 'utf8'), JSON.stringify(after, null, 2), 'two-space JSON without a trailing newline, as Pi writes it');
		assert.equal((await readPruneSettings(temp(), LATEST)).config.chainCompression.rollingWindow, 5);
	});

	it('adds contextPrune at the end when absent, and keeps a trailing newline the file had', async () => {
		writeFileSync(settingsFile(), `${JSON.stringify(otherSettings, null, 4)}\n`);
		await updatePruneSettings(temp(), () => ({ enabled: true }));
		const text = readFileSync(settingsFile(), 'utf8');
		assert.equal(text, `${JSON.stringify({ ...otherSettings, contextPrune: { enabled: true } }, null, 2)}\n`);
	});

	it('creates the folder and the file when missing', async () => {
		const agentDir = join(temp(), 'new', 'agent');
		const result = await updatePruneSettings(agentDir, (current) => ({ ...current, enabled: true }));
		assert.equal(result.created, true);
		assert.equal(readFileSync(join(agentDir, 'settings.json'), 'utf8'), '{\n  "contextPrune": {\n    "enabled": true\n  }\n}');
	});

	it('refuses an invalid JSON file with a clear error and leaves it byte-identical', async () => {
		writeFileSync(settingsFile(), '{\n  "theme": "dark",\n}\n');
		await expectRefusal('invalid-json', /settings\.json is not valid JSON at line 3, column 1 .* Fix or delete the file/);
	});

	it('refuses a file that is not a JSON object', async () => {
		writeFileSync(settingsFile(), '"just a string"');
		await expectRefusal('not-object', /contains a string, not a JSON object/);
	});

	it('refuses a read-only file clearly', async () => {
		writeFileSync(settingsFile(), '{"theme":"dark"}');
		chmodSync(settingsFile(), 0o444);
		await expectRefusal('read-only', /settings\.json is read-only\. Make it writable/);
	});

	it('keeps the file mode, and writes through a symlinked settings.json', async () => {
		const real = join(temp(), 'dotfiles', 'pi-settings.json');
		mkdirSync(join(temp(), 'dotfiles'));
		writeFileSync(real, '{"theme":"dark"}');
		chmodSync(real, 0o600);
		const agentDir = join(temp(), 'agent');
		mkdirSync(agentDir);
		symlinkSync(real, join(agentDir, 'settings.json'));
		await updatePruneSettings(agentDir, () => ({ enabled: true }));
		assert.ok(lstatSync(join(agentDir, 'settings.json')).isSymbolicLink(), 'still a symlink');
		assert.deepEqual(JSON.parse(readFileSync(real, 'utf8')), { theme: 'dark', contextPrune: { enabled: true } });
		assert.equal(statSync(real).mode & 0o777, 0o600);
	});

	it('starts over when another writer (without the lock) changes the file between read and rename: both changes survive', async () => {
		writeFileSync(settingsFile(), JSON.stringify({ theme: 'dark', contextPrune: { enabled: false } }, null, 2));
		let calls = 0;
		const result = await updatePruneSettings(temp(), (current) => {
			calls++;
			if (calls === 1) {
				// Another program saves a different key right now.
				writeFileSync(settingsFile(), JSON.stringify({ theme: 'light', contextPrune: { enabled: false, minBatchChars: 0 } }, null, 2));
			}
			return { ...current, enabled: true };
		});
		assert.equal(result.attempts, 2);
		assert.deepEqual(readJson(), { theme: 'light', contextPrune: { enabled: true, minBatchChars: 0 } });
	});

	it('waits for Pi\'s lock, and says so clearly when it stays locked', async () => {
		writeFileSync(settingsFile(), '{}');
		const release = await lockfile.lock(settingsFile(), { realpath: false });
		const pending = updatePruneSettings(temp(), () => ({ enabled: true }));
		setTimeout(() => void release(), 150);
		await pending;
		assert.deepEqual(readJson(), { contextPrune: { enabled: true } });

		const held = await lockfile.lock(settingsFile(), { realpath: false });
		try {
			await assert.rejects(updatePruneSettings(temp(), () => ({ enabled: false })), (error: unknown) =>
				error instanceof SettingsWriteError && error.kind === 'locked' && /locked by another program/.test(error.message));
		} finally {
			await held();
		}
		assert.deepEqual(readJson(), { contextPrune: { enabled: true } });
	});

	it('interleaves safely with Pi\'s own SettingsManager writing in another process', async () => {
		writeFileSync(settingsFile(), JSON.stringify({ theme: 'dark' }, null, 2));
		const rounds = 25;
		const script = join(temp(), 'pi-writer.mjs');
		const piModule = join(repoRoot, 'node_modules', '@mariozechner', 'pi-coding-agent', 'dist', 'index.js');
		writeFileSync(script, `
			const { SettingsManager } = await import(${JSON.stringify(`file://${piModule}`)});
			const manager = SettingsManager.create(${JSON.stringify(temp())}, ${JSON.stringify(temp())});
			let lastSaved = null;
			for (let i = 0; i < ${rounds}; i++) {
				manager.setLastChangelogVersion('1.0.' + i);
				await manager.flush();
				if (manager.drainErrors().length === 0) lastSaved = '1.0.' + i;
				await new Promise((r) => setTimeout(r, 2));
			}
			process.stdout.write(JSON.stringify({ lastSaved }));
		`);
		const child = spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'inherit'] });
		let output = '';
		child.stdout.on('data', (chunk: Buffer) => {
			output += chunk.toString();
		});
		const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
		for (let i = 1; i <= rounds; i++) {
			await updatePruneSettings(temp(), (current) => ({ ...current, counter: i }));
		}
		assert.equal(await exited, 0);
		const { lastSaved } = JSON.parse(output) as { lastSaved: string | null };
		const final = readJson();
		assert.equal(final.theme, 'dark');
		assert.deepEqual(final.contextPrune, { counter: rounds });
		assert.notEqual(lastSaved, null, 'Pi saved at least once');
		assert.equal(final.lastChangelogVersion, lastSaved);
	});
});
