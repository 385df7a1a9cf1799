/**
 * "Set up a key…" writing Pi's auth.json, and taking the key out again, on real files: a file that does not
 * parse is never written (the error names the file and where it fails; the bytes stay); every other key and
 * login is kept; the file ends 0600 whatever it was, and the change is reported; Pi 1.6.0's own AuthStorage
 * and Pi Condense exclude each other through Pi's lock. The removal puts the previous bytes back while the
 * file is what was written, else removes only the provider's entry, after a confirmation for the file as it
 * is, and never an entry someone else wrote since.
 */
import assert from 'node:assert/strict';
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { createAuthJsonStore } from '../../../../src/node/llm/library/authJsonStore';
import { withAuthFileLock } from '../../../../src/node/llm/authFileLock';
import { AuthFileError, removeStoredKey, storeApiKey, type StoredKeyRecord } from '../../../../src/node/llm/storedApiKey';
import { watchLockRefusals } from '../../../support/lockRefusals';
import { piAuthWriter } from '../../../support/pi16Auth';
import { useTempDir } from '../../../support/tempDirs';

const KEY = 'sk-SENTINEL-new-key-4f1a';
const OTHERS = {
	anthropic: { type: 'oauth', access: 'sk-oat-SENTINEL-access', refresh: 'sk-ort-SENTINEL-refresh', expires: 1_900_000_000_000, accountId: 'acc-1' },
	google: { type: 'api_key', key: '$GEMINI_KEY', env: { REGION: 'eu' } },
	custom: { type: 'api_key', key: '!pass show custom' },
};

const modeOf = (path: string): number => statSync(path).mode & 0o777;

describe('Set up a key: Pi\'s auth.json written safely, and the key taken out again', function () {
	this.timeout(60_000);
	const temp = useTempDir('pi-condense-key');
	const authPath = (): string => join(temp(), 'auth.json');
	const read = (): Record<string, unknown> => JSON.parse(readFileSync(authPath(), 'utf8')) as Record<string, unknown>;
	const noTemporaryFile = (): void => assert.deepEqual(readdirSync(temp()).filter((name) => name.endsWith('.tmp') || name.endsWith('.lock')), []);

	it('keeps every other key and login, writes the file as Pi does, and makes a new file 0600', async () => {
		writeFileSync(authPath(), JSON.stringify(OTHERS), { mode: 0o600 });
		const stored = await storeApiKey(temp(), 'openai', KEY);
		assert.deepEqual(read(), { ...OTHERS, openai: { type: 'api_key', key: KEY } });
		assert.match(readFileSync(authPath(), 'utf8'), /^\{\n {2}"anthropic": \{\n {4}"type": "oauth",/, 'two-space JSON, as Pi writes it');
		assert.equal(stored.modeWas, undefined, 'it was 0600 already');
		assert.equal(stored.record.replacedEntry, false);
		assert.ok(!JSON.stringify(stored.record).includes(KEY), 'the record holds no key of its own');
		noTemporaryFile();

		const fresh = join(temp(), 'fresh');
		const created = await storeApiKey(fresh, 'openai', KEY);
		assert.equal(modeOf(join(fresh, 'auth.json')), 0o600);
		assert.equal(created.modeWas, undefined);
		assert.equal(created.record.previous, null, 'there was no file');
	});

	it('ends with mode 0600 whatever the mode was, and says what it was', async () => {
		writeFileSync(authPath(), JSON.stringify(OTHERS));
		chmodSync(authPath(), 0o644);
		const stored = await storeApiKey(temp(), 'openai', KEY);
		assert.equal(modeOf(authPath()), 0o600);
		assert.equal(stored.modeWas, 0o644);
	});

	for (const [name, text, where] of [
		['a stray comma', '{\n  "google": { "type": "api_key", "key": "k" },\n}\n', /is not valid JSON at line 3, column 1/],
		['a file Pi is halfway through writing', '{\n  "anthropic": { "type": "oauth", "access": "sk-oat-SENTINEL', /is not valid JSON at line 2, column \d+/],
		['an empty file', '', /is not valid JSON/],
		['a newer format (a list)', '[{ "provider": "google" }]', /does not hold a JSON object/],
	] as const) {
		it(`never writes a file that does not parse (${name}): it says which and where, and leaves it byte for byte`, async () => {
			writeFileSync(authPath(), text, { mode: 0o644 });
			const error: unknown = await storeApiKey(temp(), 'openai', KEY).then(() => assert.fail('written'), (thrown: unknown) => thrown);
			assert.ok(error instanceof AuthFileError);
			assert.match(error.message, new RegExp(`^${authPath().replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} `));
			assert.match(error.message, where);
			assert.match(error.message, /Pi Condense did not change it/);
			assert.ok(!error.message.includes('SENTINEL'), 'the file\'s text is never quoted');
			assert.equal(readFileSync(authPath(), 'utf8'), text);
			assert.equal(modeOf(authPath()), 0o644);
			noTemporaryFile();
		});
	}

	it('refuses what is not a regular file without waiting on it (a FIFO)', async () => {
		execFileSync('mkfifo', [authPath()]);
		await assert.rejects(storeApiKey(temp(), 'openai', KEY), /is not a regular file: Pi Condense did not change it/);
		assert.ok(lstatSync(authPath()).isFIFO());
	});

	it('writes through a symlinked auth.json to the file it names, which stays a link', async () => {
		const dotfiles = join(temp(), 'dotfiles');
		mkdirSync(dotfiles);
		writeFileSync(join(dotfiles, 'auth.json'), JSON.stringify(OTHERS), { mode: 0o600 });
		symlinkSync(join(dotfiles, 'auth.json'), authPath());
		await storeApiKey(temp(), 'openai', KEY);
		assert.equal(readlinkSync(authPath()), join(dotfiles, 'auth.json'));
		assert.deepEqual(JSON.parse(readFileSync(join(dotfiles, 'auth.json'), 'utf8')), { ...OTHERS, openai: { type: 'api_key', key: KEY } });
	});

	it('waits for Pi 1.6.0\'s own lock on auth.json, so neither write is lost', async () => {
		writeFileSync(authPath(), JSON.stringify(OTHERS), { mode: 0o600 });
		// Pi holds its lock, the file read, and will write its entry merged into what it read.
		const pi = piAuthWriter(authPath(), 'pi-provider', 'pi-key', 'hold');
		await pi.printed('locked');
		const attempts = watchLockRefusals();
		const ours = storeApiKey(temp(), 'openai', KEY);
		try {
			// Without the lock our write would land now, and Pi's, from what it read before, would drop it. With it, ours waits.
			await Promise.race([attempts.refused, ours]);
		} finally {
			attempts.restore();
		}
		pi.release();
		await pi.printed('done');
		await ours;
		assert.deepEqual(read(), { ...OTHERS, 'pi-provider': { type: 'api_key', key: 'pi-key' }, openai: { type: 'api_key', key: KEY } });
		assert.equal(await pi.exited, 0);
	});

	it('holds the very lock Pi 1.6.0 waits for', async () => {
		writeFileSync(authPath(), JSON.stringify(OTHERS), { mode: 0o600 });
		let pi: ReturnType<typeof piAuthWriter> | undefined;
		await withAuthFileLock(authPath(), async () => {
			pi = piAuthWriter(authPath(), 'pi-provider', 'pi-key', 'now');
			// Pi's write would land now without the lock, and this one, from what was read before, would drop it. With it, Pi waits.
			await Promise.race([pi.printed('waiting'), pi.printed('done')]);
			writeFileSync(authPath(), JSON.stringify({ ...OTHERS, openai: { type: 'api_key', key: KEY } }));
		});
		await pi?.printed('done');
		assert.deepEqual(read(), { ...OTHERS, openai: { type: 'api_key', key: KEY }, 'pi-provider': { type: 'api_key', key: 'pi-key' } });
	});

	describe('Remove the Key Set up by Pi Condense', () => {
		it('puts the previous bytes back while nothing else changed the file (the earlier key, the BOM, the layout)', async () => {
			const before = '\uFEFF{ "google": { "type": "api_key", "key": "$GEMINI_KEY" },\n  "openai": { "type": "api_key", "key": "old" } }\n';
			writeFileSync(authPath(), before, { mode: 0o644 });
			const { record } = await storeApiKey(temp(), 'openai', KEY);
			assert.equal(record.replacedEntry, true);
			assert.deepEqual(await removeStoredKey(record), { kind: 'restored', removedFile: false });
			assert.equal(readFileSync(authPath(), 'utf8'), before);
			assert.equal(modeOf(authPath()), 0o600, 'the file stays closed to others');
			noTemporaryFile();
		});

		it('removes the file it created, when nothing else wrote to it', async () => {
			const { record } = await storeApiKey(temp(), 'openai', KEY);
			assert.deepEqual(await removeStoredKey(record), { kind: 'restored', removedFile: true });
			assert.ok(!existsSync(authPath()));
			assert.equal((await removeStoredKey(record)).kind, 'gone');
		});

		it('once the file changed, removes only that provider\'s entry, and only after a confirmation for the file as it is', async () => {
			writeFileSync(authPath(), JSON.stringify(OTHERS), { mode: 0o600 });
			const { record } = await storeApiKey(temp(), 'openai', KEY);
			// Pi refreshes a login meanwhile.
			const refreshed = { ...read(), anthropic: { ...OTHERS.anthropic, access: 'sk-oat-SENTINEL-refreshed' } };
			writeFileSync(authPath(), JSON.stringify(refreshed, null, 2));
			const asked = await removeStoredKey(record);
			assert.equal(asked.kind, 'confirm');
			assert.equal(readFileSync(authPath(), 'utf8'), JSON.stringify(refreshed, null, 2), 'nothing removed before the confirmation');
			// The file changes again while the user is asked: the confirmation no longer holds.
			const again = { ...refreshed, google: { type: 'api_key', key: '$OTHER' } };
			writeFileSync(authPath(), JSON.stringify(again, null, 2));
			const stale = asked.kind === 'confirm' ? asked.fileSha256 : '';
			const reasked = await removeStoredKey(record, stale);
			assert.equal(reasked.kind, 'confirm');
			assert.deepEqual(read(), again);
			assert.deepEqual(await removeStoredKey(record, reasked.kind === 'confirm' ? reasked.fileSha256 : ''), { kind: 'removed' });
			assert.deepEqual(read(), Object.fromEntries(Object.entries(again).filter(([provider]) => provider !== 'openai')));
			assert.equal(modeOf(authPath()), 0o600);
		});

		it('leaves an entry someone else wrote since (a /login), and a file that no longer parses', async () => {
			writeFileSync(authPath(), JSON.stringify(OTHERS), { mode: 0o600 });
			const { record } = await storeApiKey(temp(), 'openai', KEY);
			const relogged = { ...read(), openai: { type: 'oauth', access: 'a', refresh: 'r', expires: 1 } };
			writeFileSync(authPath(), JSON.stringify(relogged));
			const outcome = await removeStoredKey(record);
			assert.equal(outcome.kind, 'gone');
			assert.match(outcome.kind === 'gone' ? outcome.reason : '', /the entry for "openai" .* changed since Pi Condense saved it/);
			assert.deepEqual(read(), relogged);
			writeFileSync(authPath(), '{ "openai": ');
			await assert.rejects(removeStoredKey({ ...record, writtenSha256: 'x' } satisfies StoredKeyRecord), /is not valid JSON at line 1, column \d+, so Pi Condense did not change it/);
			assert.equal(readFileSync(authPath(), 'utf8'), '{ "openai": ');
		});
	});

	it('the credential store pi-ai refreshes logins through never writes over a file that does not parse', async () => {
		writeFileSync(authPath(), '{ "anthropic": { "type": "oauth", }');
		const store = createAuthJsonStore({ agentDir: temp(), mode: 'request' });
		await assert.rejects(store.modify('anthropic', () => Promise.resolve({ type: 'oauth', access: 'a', refresh: 'r', expires: 1 })), /auth\.json is not valid JSON \(line 1\): Pi Condense did not change it/);
		assert.equal(readFileSync(authPath(), 'utf8'), '{ "anthropic": { "type": "oauth", }');
	});
});
