/**
 * auth.json as the credential store of today's pi-ai: an OAuth login about to expire is refreshed the way Pi
 * refreshes it (by pi-ai's own `Models.getAuth`, inside the store's `modify`, under Pi's lock on the file), the
 * new tokens are written back beside the other entries, a login Pi refreshed meanwhile is used and not
 * refreshed again, and a failed refresh says what to do without a token in it. The token endpoint is a real
 * HTTP server on 127.0.0.1 (a built-in provider's endpoint is on the internet), reached by a provider that
 * uses pi-ai's OAuth contract; everything else is pi-ai 1.6.0 itself and real files.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import { createAuthJsonStore } from '../../../../src/node/llm/library/authJsonStore';
import { explainAuthFailure } from '../../../../src/node/llm/library/modelsLibrary';
import { watchLockRefusals } from '../../../support/lockRefusals';
import { distDir } from '../../../support/piAiForTests';

const OLD = { access: 'sk-oat-SENTINEL-old-access-71c2', refresh: 'sk-ort-SENTINEL-old-refresh-93d0' };

interface TokenServer {
	readonly url: string;
	readonly refreshes: string[];
	fail: boolean;
	close(): Promise<void>;
}

async function startTokenServer(): Promise<TokenServer> {
	const state = { refreshes: [] as string[], fail: false };
	const server: Server = createServer((req, res) => {
		let body = '';
		req.on('data', (chunk: Buffer) => (body += chunk.toString()));
		req.on('end', () => {
			const { refresh } = JSON.parse(body) as { refresh: string };
			state.refreshes.push(refresh);
			if (state.fail) {
				res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'invalid_grant', refresh_token: refresh }));
				return;
			}
			const n = state.refreshes.length;
			res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ access: `new-access-${n}`, refresh: `new-refresh-${n}`, expires: Date.now() + 3_600_000 }));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const address = server.address();
	return {
		url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
		get refreshes() { return state.refreshes; },
		get fail() { return state.fail; },
		set fail(value) { state.fail = value; },
		close: () => new Promise((resolve) => server.close(() => resolve())),
	};
}

interface Collection {
	setProvider(provider: unknown): void;
	getAuth(provider: string): Promise<{ auth: { apiKey?: string } } | undefined>;
}

/** pi-ai's own collection (the bundled 1.6.0) over our store, with a provider whose OAuth server is local. */
function collectionFor(agentDir: string, tokens: TokenServer): Collection {
	const chunkPath = join(distDir, 'pi-ai.js');
	const { createModels } = createRequire(chunkPath)(chunkPath) as { createModels: (options: unknown) => Collection };
	const models = createModels({ credentials: createAuthJsonStore({ agentDir, mode: 'request' }) });
	models.setProvider({
		id: 'local-oauth', name: 'Local OAuth',
		auth: {
			oauth: {
				name: 'Local login',
				login: () => Promise.reject(new Error('not in tests')),
				refresh: async (credential: { refresh: string }, signal: AbortSignal) => {
					const response = await fetch(`${tokens.url}/token`, { method: 'POST', body: JSON.stringify({ refresh: credential.refresh }), signal });
					if (!response.ok) {
						throw new Error(`token refresh failed: ${await response.text()}\n    at refresh (local.js:1:1)`);
					}
					return { type: 'oauth', ...await response.json() as object };
				},
				toAuth: (credential: { access: string }) => Promise.resolve({ apiKey: credential.access }),
			},
		},
		getModels: () => [],
		stream: () => { throw new Error('not in tests'); },
		streamSimple: () => { throw new Error('not in tests'); },
	});
	return models;
}

describe('auth.json as today\'s pi-ai credential store: OAuth refreshed as Pi refreshes it', () => {
	let agentDir: string;
	let tokens: TokenServer;
	const authPath = (): string => join(agentDir, 'auth.json');
	const readAuth = async (): Promise<Record<string, Record<string, unknown>>> => JSON.parse(await readFile(authPath(), 'utf8')) as Record<string, Record<string, unknown>>;

	beforeEach(async () => {
		agentDir = await mkdtemp(join(tmpdir(), 'pi-condense-auth-'));
		tokens = await startTokenServer();
		await writeFile(authPath(), JSON.stringify({
			'local-oauth': { type: 'oauth', ...OLD, expires: 1_000, accountId: 'kept' },
			other: { type: 'api_key', key: '$SOME_VARIABLE', env: { REGION: 'eu' } },
		}, null, 2), { mode: 0o600 });
	});
	afterEach(async () => {
		await tokens.close();
		await rm(agentDir, { recursive: true, force: true });
	});

	it('refreshes an expired login once and writes the new tokens back beside the other entries, as Pi writes the file', async () => {
		const models = collectionFor(agentDir, tokens);
		assert.equal((await models.getAuth('local-oauth'))?.auth.apiKey, 'new-access-1');
		assert.equal((await models.getAuth('local-oauth'))?.auth.apiKey, 'new-access-1', 'still valid: not refreshed again');
		assert.deepEqual(tokens.refreshes, [OLD.refresh]);
		const written = await readAuth();
		assert.equal(written['local-oauth']?.access, 'new-access-1');
		assert.equal(written['local-oauth']?.refresh, 'new-refresh-1');
		assert.deepEqual(written.other, { type: 'api_key', key: '$SOME_VARIABLE', env: { REGION: 'eu' } }, 'other entries kept as written');
		assert.match(await readFile(authPath(), 'utf8'), /^\{\n {2}"local-oauth": \{\n {4}"type": "oauth",/, 'two-space JSON, as Pi writes it');
	});

	it('waits for Pi\'s lock on auth.json, then uses the login Pi refreshed meanwhile instead of refreshing it again', async () => {
		const release = await lockfile.lock(authPath(), { stale: 30_000 });
		const models = collectionFor(agentDir, tokens);
		let settled = false;
		const attempts = watchLockRefusals();
		const auth = models.getAuth('local-oauth').finally(() => (settled = true));
		try {
			// It has reached Pi's lock and found it held (or, not waiting for it, it settled).
			await Promise.race([attempts.refused, auth]);
		} finally {
			attempts.restore();
		}
		assert.equal(settled, false, 'waits while Pi holds the lock');
		// Pi refreshes under its lock: its new (rotated) tokens are in the file when the lock goes.
		const current = await readAuth();
		await writeFile(authPath(), JSON.stringify({ ...current, 'local-oauth': { type: 'oauth', access: 'pi-access', refresh: 'pi-refresh', expires: Date.now() + 3_600_000 } }, null, 2));
		await release();
		assert.equal((await auth)?.auth.apiKey, 'pi-access');
		assert.deepEqual(tokens.refreshes, [], 'no second refresh of a token Pi rotated');
	});

	it('says what to do when the refresh fails, with no token and no stack in the message, and keeps the stored login', async () => {
		tokens.fail = true;
		const models = collectionFor(agentDir, tokens);
		const failure: unknown = await models.getAuth('local-oauth').then(() => assert.fail('the refresh failed'), (error: unknown) => error);
		const explained = explainAuthFailure(failure, 'local-oauth', agentDir, [OLD.access, OLD.refresh]);
		assert.equal(explained.kind, 'credentials');
		assert.match(explained.message, /^The login of provider "local-oauth" in .*auth\.json could not be refreshed \(token refresh failed: .*invalid_grant.*\)\. Run `pi` and use \/login to sign in again\.$/);
		assert.ok(!explained.message.includes('SENTINEL') && !explained.message.includes('at refresh'), explained.message);
		assert.equal((await readAuth())['local-oauth']?.access, OLD.access);
	});

	it('never writes, nor runs a command, in probe mode (listings and prices)', async () => {
		await writeFile(authPath(), JSON.stringify({ shell: { type: 'api_key', key: `!touch ${join(agentDir, 'ran')}` } }));
		const store = createAuthJsonStore({ agentDir, mode: 'probe' });
		assert.deepEqual(await store.read('shell'), { type: 'api_key', key: `!touch ${join(agentDir, 'ran')}` });
		await assert.rejects(store.modify('shell', () => Promise.resolve({ type: 'api_key', key: 'x' })), /only reads/);
		await assert.rejects(readFile(join(agentDir, 'ran')), { code: 'ENOENT' });
	});
});
