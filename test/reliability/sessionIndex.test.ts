/**
 * The session index under real processes: VS Code windows on both engines (node:sqlite on Node 22,
 * SQLite in WebAssembly on Node 20) and the command line using one index file at once lose no row
 * and leave it sound; a process killed with SIGKILL in the middle of a build leaves a sound index
 * that the next one completes to exactly what a build from scratch gives; an index folder that
 * cannot be written leaves the command line working as without an index, said once.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { EMPTY_SUMMARY, summarizeLines } from '../../src/engine/session/summary';
import type { HistoryIndex } from '../../src/node/history/historyIndex';
import { searchHistory } from '../../src/node/history/historySearch';
import { IndexLock } from '../../src/node/history/indexLock';
import { openSqlite, type SqlEngineChoice } from '../../src/node/history/sqlite/openSqlite';
import { nodeSqliteModule } from '../../src/node/history/sqlite/nodeSqlite';
import { pi1Node } from '../support/pi16';
import { piCondenseSessionsDir, realSessionFiles, repoRoot } from '../support/paths';
import { useTempDir } from '../support/tempDirs';
import { distDir, headerLine, openTestIndex, sessionsRoot, userLine, writeSession } from '../support/history/indexKit';

const WORKER = join(repoRoot, 'out', 'test', 'support', 'history', 'indexWorker.js');
const CLI = join(repoRoot, 'dist', 'cli.js');

/** The WebAssembly engine on this Node (forced when this Node has node:sqlite). */
const WASM: SqlEngineChoice = nodeSqliteModule() ? 'wasm' : 'auto';

interface Finished {
	readonly code: number | null;
	readonly stdout: string;
	readonly stderr: string;
}

function finished(child: ChildProcess): Promise<Finished> {
	let stdout = '';
	let stderr = '';
	child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
	child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
	return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

function worker(node: string, env: NodeJS.ProcessEnv, args: Record<string, unknown>): ChildProcess {
	return spawn(node, [WORKER, JSON.stringify(args)], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * PRAGMA integrity_check and FTS5's own check of the search index, on a connection of its own opened
 * as every user of the index opens it: with the cross-process lock held (a killed holder's is taken
 * over once stale) and the WebAssembly engine's `<db>.lock` folder a killed process left removed. A
 * connection that skipped that would meet the dead process's lock folder ("database is locked").
 */
async function soundness(path: string, engine: SqlEngineChoice): Promise<string> {
	const lock = new IndexLock(path);
	try {
		return await lock.run(() => {
			const db = openSqlite(path, { engine, distDir });
			try {
				db.beforeUse();
				const rows = db.prepare('PRAGMA integrity_check').all();
				db.exec("INSERT INTO docs_text (docs_text, rank) VALUES ('integrity-check', 0)");
				return rows.map((row) => String(row['integrity_check'])).join('; ');
			} finally {
				db.close();
			}
		});
	} finally {
		await lock.close();
	}
}

/** What the index holds per file: the summary and its row counts (to compare two indexes). */
async function contents(index: HistoryIndex, agentDir: string): Promise<Record<string, unknown>> {
	const rows = await index.stored([sessionsRoot(agentDir)]);
	const counts = await index.db.read((db) => Object.fromEntries(rows.map((row) => [row.path, {
		usage: db.prepare('SELECT count(*) AS n, total(cost) AS cost FROM usage_with_model WHERE sid = ?').get([row.sid]),
		events: db.prepare('SELECT count(*) AS n FROM events WHERE sid = ?').get([row.sid]),
		docs: db.prepare('SELECT count(*) AS n FROM docs WHERE doc BETWEEN ? AND ?').get([row.sid * 2 ** 26, (row.sid + 1) * 2 ** 26 - 1]),
	}])));
	return Object.fromEntries(rows.map((row) => [row.path, { summary: row.summary, consumed: row.consumed, size: row.size, ...counts[row.path] as object }]));
}

describe('session index with real processes', function () {
	this.timeout(300_000);
	const temp = useTempDir('index-processes');

	it('two windows (node:sqlite on Node 22, WebAssembly on Node 20) and the command line at once: no row lost, the file sound', async () => {
		const node22 = pi1Node();
		const agentDir = join(temp(), 'agent');
		const indexPath = join(temp(), 'index', 'index.sqlite');
		const filesOf = (name: string): string[] => [0, 1, 2].map((i) => writeSession(agentDir, `p${i}`, `${name}-${i}.jsonl`, headerLine(`${name}-${i}-id`, `/work/p${i}`) + userLine('u0', `start of ${name}`, 1000)));
		const rounds = 24;
		const native = worker(node22.nodeBin, node22.env, { mode: 'append', index: indexPath, agentDir, engine: 'node:sqlite', name: 'n', files: filesOf('n'), rounds });
		const wasm = worker(process.execPath, {}, { mode: 'append', index: indexPath, agentDir, engine: WASM, name: 'w', files: filesOf('w'), rounds });
		const cli = (async (): Promise<Finished[]> => {
			const runs: Finished[] = [];
			for (let i = 0; i < 4; i++) {
				runs.push(await finished(spawn(process.execPath, [CLI, 'list', '--agent-dir', agentDir, '--index', indexPath], { stdio: ['ignore', 'pipe', 'pipe'] })));
			}
			return runs;
		})();
		const [a, b, lists] = await Promise.all([finished(native), finished(wasm), cli]);
		assert.equal(a.code, 0, a.stderr);
		assert.equal(b.code, 0, b.stderr);
		assert.equal(JSON.parse(a.stdout).engine, 'node:sqlite');
		assert.equal(JSON.parse(b.stdout).engine, 'wasm');
		for (const run of lists) {
			assert.equal(run.code, 0, run.stderr);
			assert.equal(run.stderr, '');
		}
		assert.equal(await soundness(indexPath, 'auto'), 'ok');
		const { index } = await openTestIndex(indexPath);
		assert.ok(index);
		try {
			for (const row of await index.stored([sessionsRoot(agentDir)])) {
				const text = readFileSync(row.path, 'utf8');
				assert.deepEqual(row.summary, summarizeLines(EMPTY_SUMMARY, text), row.path);
				assert.equal(row.consumed, Buffer.byteLength(text));
			}
			for (const word of [...(JSON.parse(a.stdout) as { words: string[] }).words, ...(JSON.parse(b.stdout) as { words: string[] }).words]) {
				assert.equal((await searchHistory(index, word)).length, 1, word);
			}
			const usage = await index.db.read((db) => Number(db.prepare('SELECT count(*) AS n FROM usage').get()?.['n']));
			assert.equal(usage, 2 * rounds, 'one usage row per assistant line');
		} finally {
			await index.close();
		}
	});

	for (const engine of ['node:sqlite', 'wasm'] as const) {
		it(`a build killed (SIGKILL) part way on ${engine}: the index is sound, and the next build completes it to what a build from scratch gives`, async () => {
			const node22 = pi1Node();
			const agentDir = join(temp(), 'agent');
			const sources = [...realSessionFiles(), join(piCondenseSessionsDir, 'large-bulk-2.9.1', 'session.jsonl')];
			for (let i = 0; i < 12; i++) {
				const folder = join(agentDir, 'sessions', `--p${i % 3}--`);
				mkdirSync(folder, { recursive: true });
				copyFileSync(sources[i % sources.length] as string, join(folder, `s${i}.jsonl`));
			}
			const indexPath = join(temp(), 'index', 'index.sqlite');
			const child = engine === 'node:sqlite'
				? worker(node22.nodeBin, node22.env, { mode: 'build', index: indexPath, agentDir, engine })
				: worker(process.execPath, {}, { mode: 'build', index: indexPath, agentDir, engine: WASM });
			const done = finished(child);
			await new Promise<void>((resolve) => {
				child.stdout?.on('data', (chunk: Buffer) => {
					if (/wrote 3\b/.test(chunk.toString())) {
						child.kill('SIGKILL');
						resolve();
					}
				});
			});
			const killed = await done;
			assert.equal(killed.code, null, 'killed before it finished');
			assert.ok(!killed.stdout.includes('done'));
			// Opened by the other engine first: a journal left by either is rolled back by either.
			assert.equal(await soundness(indexPath, engine === 'wasm' ? 'auto' : WASM), 'ok');
			const resumed = await openTestIndex(indexPath);
			const fresh = await openTestIndex(join(temp(), 'fresh', 'index.sqlite'));
			assert.ok(resumed.index && fresh.index);
			try {
				const result = await resumed.index.refresh([sessionsRoot(agentDir)]);
				assert.ok((result.outcomes.get('unchanged') ?? 0) + (result.outcomes.get('appended') ?? 0) >= 1, 'what was written before the kill is kept');
				await fresh.index.refresh([sessionsRoot(agentDir)]);
				assert.deepEqual(await contents(resumed.index, agentDir), await contents(fresh.index, agentDir));
			} finally {
				await resumed.index.close();
				await fresh.index.close();
			}
			assert.equal(await soundness(indexPath, 'auto'), 'ok');
		});
	}

	for (const engine of ['node:sqlite', 'wasm'] as const) {
		it(`a process killed (SIGKILL) inside a write on ${engine}, both locks held and a hot journal: the next opener waits out the lock, clears what it left and rolls the write back`, async () => {
			const node22 = pi1Node();
			const agentDir = join(temp(), 'agent');
			for (let i = 0; i < 6; i++) {
				writeSession(agentDir, `p${i % 2}`, `s${i}.jsonl`, headerLine(`s${i}-id`) + userLine('u1', `the words of session ${i}`, 1000 + i));
			}
			const indexPath = join(temp(), 'index', 'index.sqlite');
			const built = await openTestIndex(indexPath, engine === 'wasm' ? WASM : 'auto');
			assert.ok(built.index);
			await built.index.refresh([sessionsRoot(agentDir)]);
			const before = await contents(built.index, agentDir);
			await built.index.close();
			const child = engine === 'node:sqlite'
				? worker(node22.nodeBin, node22.env, { mode: 'hold', index: indexPath, agentDir, engine })
				: worker(process.execPath, {}, { mode: 'hold', index: indexPath, agentDir, engine: WASM });
			const done = finished(child);
			await new Promise<void>((resolve) => child.stdout?.on('data', (chunk: Buffer) => chunk.toString().includes('holding') && resolve()));
			child.kill('SIGKILL');
			assert.equal((await done).code, null, 'killed inside its write');
			// What the dead process left: our lock (not refreshed since its thread spun), its journal, and the WebAssembly engine's lock folder.
			assert.ok(existsSync(`${indexPath}.mutex`), 'the cross-process lock is left');
			assert.ok(statSync(`${indexPath}-journal`).size > 0, 'a hot journal is left');
			assert.equal(existsSync(`${indexPath}.lock`), engine === 'wasm', 'the WebAssembly engine\'s lock folder is left by it alone');
			if (engine === 'wasm') {
				// The window the lock protocol closes: a connection that skips it meets the dead process's lock folder.
				const raw = openSqlite(indexPath, { engine: WASM, distDir });
				try {
					assert.throws(() => raw.prepare('SELECT count(*) AS n FROM sessions').all(), /database is locked/);
				} finally {
					raw.close();
				}
			}
			// The next opener, on this Node's engine and on the WebAssembly one: nothing of the deleted rows is lost.
			for (const next of ['auto', WASM] as const) {
				const reopened = await openTestIndex(indexPath, next);
				assert.ok(reopened.index, `opened on ${next}`);
				try {
					assert.deepEqual(await contents(reopened.index, agentDir), before);
					assert.equal((await searchHistory(reopened.index, 'words'))?.length, 6);
				} finally {
					await reopened.index.close();
				}
				assert.deepEqual(reopened.notices, [], 'nothing moved aside or turned off');
			}
			assert.ok(!existsSync(`${indexPath}.lock`) && !existsSync(`${indexPath}.mutex`), 'nothing left behind');
			assert.equal(await soundness(indexPath, 'auto'), 'ok');
		});
	}

	it('an index folder that cannot be written: the command line lists as without an index, saying so once', function () {
		const agentDir = join(temp(), 'agent');
		writeSession(agentDir, 'p', 'a.jsonl', headerLine('aaaa') + userLine('u1', 'hello there', 1000));
		const folder = join(temp(), 'readonly');
		mkdirSync(folder);
		const root = process.getuid?.() === 0;
		// As root every folder is writable: the command line then runs as nobody, who may read but not write here.
		for (const path of [temp(), agentDir, join(agentDir, 'sessions'), ...readdirSync(join(agentDir, 'sessions')).map((name) => join(agentDir, 'sessions', name))]) {
			chmodSync(path, 0o755);
		}
		chmodSync(join(agentDir, 'sessions', '--p--', 'a.jsonl'), 0o644);
		chmodSync(folder, 0o555);
		const as = root ? { uid: 65534, gid: 65534 } : {};
		// The checkout may be in a folder only its owner can enter (CI clones into a fresh mktemp folder): nobody runs a copy.
		const dist = join(temp(), 'dist');
		cpSync(dirname(CLI), dist, { recursive: true });
		chmodSync(dist, 0o755);
		const run = (...args: string[]): Finished => {
			const result = spawnSync(process.execPath, [join(dist, 'cli.js'), 'list', '--agent-dir', agentDir, ...args], { encoding: 'utf8', ...as, env: { ...process.env, HOME: folder } });
			return { code: result.status, stdout: result.stdout, stderr: result.stderr };
		};
		const without = run('--no-index');
		assert.equal(without.code, 0, without.stderr);
		const readOnly = run('--index', join(folder, 'index.sqlite'));
		assert.equal(readOnly.code, 0, readOnly.stderr);
		assert.equal(readOnly.stdout, without.stdout);
		assert.match(readOnly.stdout, /hello there/);
		assert.equal(readOnly.stderr.trim().split('\n').length, 1, readOnly.stderr);
		assert.match(readOnly.stderr, /cannot be written .*sessions are read without it/);
	});
});
