/**
 * Pi's settings.json under every fault we can inject, read the way the CLI and the extension read
 * it and written the way the settings commands write it. For each fault: the message names the
 * file (and the line and column for broken JSON) and says what to do; a file we cannot edit safely
 * is left byte-identical; every key other than `contextPrune` survives our writes, also while a
 * hostile program rewrites the file in place without taking Pi's lock.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadPruneConfig } from '../../src/cli/loadPruneConfig';
import { SettingsWriteError, updatePruneSettings } from '../../src/node/settings/updatePruneSettings';
import { useTempDir } from '../support/tempDirs';
import { makeOld } from '../support/tempSession';
import { defaults, LATEST } from '../support/releases';

interface Fault {
	readonly name: string;
	/** Creates settings.json (or not) in the agent dir. */
	readonly setup: (path: string) => void;
	/** What the reader must say, one pattern per warning; [] for none. */
	readonly warnings: readonly RegExp[];
	/** The write refusal (kind and message), or undefined when the write goes through. */
	readonly refusal?: { readonly kind: string; readonly message: RegExp };
}

const write = (text: string) => (path: string): void => writeFileSync(path, text);
const OTHER_KEYS = { theme: 'dark', defaultModel: 'claude-sonnet-4-5', packages: ['npm:pi-condense'] };
const pretty = (value: unknown): string => JSON.stringify(value, null, 2);

/** The file as it is now, or undefined when the other writer is half-way through writing it. */
function parseOrUndefined(text: string): Record<string, unknown> | undefined {
	try {
		return JSON.parse(text) as Record<string, unknown>;
	} catch {
		return undefined;
	}
}
/** How long our writes race the hostile writer. */
const HOSTILE_WRITER_MS = 2500;
const FIX_JSON = /Fix or delete the file; Pi ignores it too until then\. Pi Condense did not change it\./;

const FAULTS: readonly Fault[] = [
	{ name: 'missing', setup: () => undefined, warnings: [] },
	{ name: 'empty', setup: write(''), warnings: [] },
	{
		name: 'only whitespace', setup: write('  \n'),
		warnings: [/settings\.json is not valid JSON at line 2, column 1 \(Unexpected end of JSON input\)\. Fix or delete the file/],
		refusal: { kind: 'invalid-json', message: FIX_JSON },
	},
	{
		name: 'a trailing comma', setup: write('{\n  "theme": "dark",\n  "contextPrune": { "enabled": true },\n}'),
		warnings: [/settings\.json is not valid JSON at line 4, column 1 /],
		refusal: { kind: 'invalid-json', message: FIX_JSON },
	},
	{
		name: 'a comment', setup: write('{\n  "theme": "dark",\n  // pruning\n  "contextPrune": {}\n}'),
		warnings: [/settings\.json is not valid JSON at line 3, column 3 /],
		refusal: { kind: 'invalid-json', message: /at line 3, column 3/ },
	},
	{
		name: 'a byte-order mark', setup: write(`\uFEFF${pretty(OTHER_KEYS)}`),
		warnings: [/settings\.json is not valid JSON at line 1, column 1 \(it starts with a byte-order mark \(BOM\), which JSON does not allow: save it as UTF-8 without BOM\)/],
		refusal: { kind: 'invalid-json', message: /byte-order mark/ },
	},
	{
		name: 'a bare word in the middle', setup: write('{\n  "theme": "dark",\n  "defaultModel": "claude-sonnet-4-5",\n  "quietStartup": yes,\n  "contextPrune": {}\n}'),
		warnings: [/settings\.json is not valid JSON at line 4, column 19 \(Unexpected token 'y'/],
		refusal: { kind: 'invalid-json', message: /line 4, column 19/ },
	},
	{
		name: 'a short invalid file', setup: write('{"a":NaN}'),
		warnings: [/settings\.json is not valid JSON at line 1, column 6 /],
		refusal: { kind: 'invalid-json', message: FIX_JSON },
	},
	{
		name: 'a half-written file', setup: write(pretty({ ...OTHER_KEYS, contextPrune: { enabled: true } }).slice(0, 60)),
		warnings: [/settings\.json is not valid JSON at line \d+, column \d+ \(/],
		refusal: { kind: 'invalid-json', message: FIX_JSON },
	},
	...(['[]', '"settings"', 'null', '42'] as const).map((text): Fault => ({
		name: `not an object (${text})`, setup: write(text),
		warnings: [/settings\.json contains (an array|a string|null|a number), not a JSON object\. Replace its content with \{\} or fix it\./],
		refusal: { kind: 'not-object', message: /not a JSON object\. Replace its content with \{\} or fix it\. Pi Condense did not change it\./ },
	})),
	...(['"on"', '[]', 'null', '5', 'true'] as const).map((value): Fault => ({
		name: `contextPrune is ${value}`, setup: write(`{\n  "theme": "dark",\n  "contextPrune": ${value}\n}`),
		warnings: [/contextPrune in .*settings\.json is (a string|an array|null|a number|a boolean), not an object; using the defaults\. Make it an object \(for example \{"enabled": true\}\) or remove it\./],
	})),
	{
		name: 'contextPrune with invalid values', setup: write(pretty({ ...OTHER_KEYS, contextPrune: { enabled: 'yes', minBatchChars: -1, protectedTools: 'bash', bogusKey: 1 } })),
		warnings: [/contextPrune\.enabled: "yes" .*using false/, /contextPrune\.minBatchChars: -1 .*using 1000/, /contextPrune\.protectedTools: "bash" .*using \[\]/],
	},
	{
		name: 'read-only', setup: (path) => {
			writeFileSync(path, pretty(OTHER_KEYS));
			chmodSync(path, 0o444);
		},
		warnings: [],
		refusal: { kind: 'read-only', message: /settings\.json is read-only\. Make it writable \(for example chmod u\+w\) to change Pi Condense settings\./ },
	},
	{
		name: 'a folder', setup: (path) => mkdirSync(path),
		warnings: [/settings\.json could not be read: EISDIR.*Check that it is a readable file\./],
		refusal: { kind: 'unreadable', message: /settings\.json could not be read: EISDIR.*Check that it is a readable file\. Pi Condense did not change it\./ },
	},
];

describe('settings.json faults', function () {
	this.timeout(60_000);
	const temp = useTempDir('settings-faults');
	const settingsPath = (): string => join(temp(), 'settings.json');

	for (const fault of FAULTS) {
		it(`${fault.name}: ${fault.refusal ? `refused (${fault.refusal.kind})` : 'written'}, with a message naming the file`, async () => {
			fault.setup(settingsPath());
			if (existsSync(settingsPath()) && lstatSync(settingsPath()).isFile()) {
				// A file that has been sitting there (a freshly modified empty or broken one is waited for: below).
				makeOld(settingsPath());
			}
			const { config, rules, warnings } = await loadPruneConfig({ agentDir: temp() }, LATEST);
			assert.equal(warnings.length, fault.warnings.length, warnings.join('\n'));
			fault.warnings.forEach((pattern, i) => assert.match(warnings[i] ?? '', pattern));
			for (const warning of warnings.filter((w) => !w.startsWith('contextPrune.'))) {
				assert.ok(warning.includes(settingsPath()), `names the file: ${warning}`);
			}
			if (fault.warnings.length > 0 && !fault.name.includes('values')) {
				assert.deepEqual(config, defaults(rules));
			}
			const before = existsSync(settingsPath()) && lstatSync(settingsPath()).isFile() ? readFileSync(settingsPath()) : undefined;
			const writing = updatePruneSettings(temp(), (current) => ({ ...current, enabled: true }));
			if (fault.refusal) {
				const { kind, message } = fault.refusal;
				await assert.rejects(writing, (error: unknown) => {
					assert.ok(error instanceof SettingsWriteError, String(error));
					assert.equal(error.kind, kind);
					assert.match(error.message, message);
					assert.ok(error.message.includes(settingsPath()), error.message);
					return true;
				});
				if (before) {
					assert.ok(readFileSync(settingsPath()).equals(before), 'left byte-identical');
				}
				assert.deepEqual(readdirSync(temp()), ['settings.json'], 'no lock or temp file left behind');
				return;
			}
			await writing;
			const after = JSON.parse(readFileSync(settingsPath(), 'utf8')) as Record<string, unknown>;
			const kept = before ? JSON.parse(before.toString() || '{}') as Record<string, unknown> : {};
			for (const [key, value] of Object.entries(kept)) {
				if (key !== 'contextPrune') {
					assert.deepEqual(after[key], value, `kept ${key}`);
				}
			}
			assert.equal((after['contextPrune'] as Record<string, unknown>)['enabled'], true);
		});
	}

	it('a dangling symlinked settings.json (dotfiles not checked out yet): the link stays a link', async () => {
		const target = join(temp(), 'dotfiles', 'pi-settings.json');
		mkdirSync(join(temp(), 'dotfiles'));
		symlinkSync(target, settingsPath());
		const { warnings } = await loadPruneConfig({ agentDir: temp() }, LATEST);
		assert.deepEqual(warnings, []);
		await updatePruneSettings(temp(), () => ({ enabled: true }));
		assert.ok(lstatSync(settingsPath()).isSymbolicLink(), 'still a symlink');
		assert.deepEqual(JSON.parse(readFileSync(target, 'utf8')), { contextPrune: { enabled: true } });
	});

	it('waits for an empty file that is being written, instead of taking it for {}', async () => {
		writeFileSync(settingsPath(), '');
		// Another program (without Pi's lock) truncated the file and is about to write it.
		const writing = new Promise<void>((resolve) => setTimeout(() => {
			writeFileSync(settingsPath(), pretty(OTHER_KEYS));
			resolve();
		}, 300));
		const result = await updatePruneSettings(temp(), () => ({ enabled: true }));
		await writing;
		assert.deepEqual(JSON.parse(readFileSync(settingsPath(), 'utf8')), { ...OTHER_KEYS, contextPrune: { enabled: true } });
		assert.equal(result.created, false);
	});

	it('never loses another key while a program rewrites the file in place without Pi\'s lock', async () => {
		writeFileSync(settingsPath(), pretty({ ...OTHER_KEYS, counter: 0 }));
		// Read-modify-write of its own key, in place (truncate, then write), as fast as it can.
		const writer = spawn(process.execPath, ['-e', `
			const fs = require('fs');
			const path = ${JSON.stringify(settingsPath())};
			const end = Date.now() + 60000;
			let n = 0;
			process.stdin.on('data', () => process.exit(0));
			(function loop() {
				for (let i = 0; i < 20 && Date.now() < end; i++) {
					let settings;
					try { settings = JSON.parse(fs.readFileSync(path, 'utf8')); } catch { continue; }
					settings.counter = ++n;
					fs.writeFileSync(path, JSON.stringify(settings, null, 2));
				}
				setImmediate(loop);
			})();
		`], { stdio: ['pipe', 'inherit', 'inherit'] });
		let refusedBusy = 0;
		let rounds = 0;
		try {
			while ((parseOrUndefined(readFileSync(settingsPath(), 'utf8'))?.['counter'] ?? 0) === 0) {
				await new Promise((resolve) => setTimeout(resolve, 10));
			}
			// At least one round however late this thread gets here on a loaded machine.
			for (const end = Date.now() + HOSTILE_WRITER_MS; rounds === 0 || Date.now() < end;) {
				const i = ++rounds;
				try {
					await updatePruneSettings(temp(), (current) => ({ ...current, round: i }));
				} catch (error) {
					// Refusing is allowed (the file kept changing, or was caught half-written); losing keys is not.
					assert.ok(error instanceof SettingsWriteError && ['busy', 'invalid-json'].includes(error.kind), String(error));
					refusedBusy++;
				}
				const now = parseOrUndefined(readFileSync(settingsPath(), 'utf8'));
				if (now !== undefined) {
					for (const [key, value] of Object.entries(OTHER_KEYS)) {
						assert.deepEqual(now[key], value, `round ${i}: ${key} survived in ${JSON.stringify(now)}`);
					}
				}
			}
		} finally {
			writer.stdin?.write('stop');
			await new Promise((resolve) => writer.on('exit', resolve));
		}
		const final = JSON.parse(readFileSync(settingsPath(), 'utf8')) as Record<string, unknown>;
		for (const [key, value] of Object.entries(OTHER_KEYS)) {
			assert.deepEqual(final[key], value, `${key} survived`);
		}
		assert.ok(typeof final['counter'] === 'number' && final['counter'] > 0, 'the other writer kept writing');
		// Refusing is fine against a writer this hostile (it rewrites the file thousands of times a second).
		assert.ok(rounds > 0);
		console.log(`      raced a lock-free in-place writer: ${rounds} writes, ${refusedBusy} refused as busy, counter ${String(final['counter'])}`);
	});
});
