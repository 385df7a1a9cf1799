import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { piCondenseSessionsDir, realSessionFiles, repoRoot } from '../../support/paths';
import { useTempDir } from '../../support/tempDirs';
import { assistantLine, headerLine, openTestIndex, sessionsRoot, userLine, writeSession } from '../../support/history/indexKit';

const CLI = join(repoRoot, 'dist', 'cli.js');

describe('pi-condense list, --latest, id prefixes and search from the session index', function () {
	this.timeout(120_000);
	const temp = useTempDir('history-cli');

	function run(...args: string[]): { code: number | null; stdout: string; stderr: string } {
		const result = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', cwd: temp(), env: { ...process.env, PI_CONDENSE_INDEX: join(temp(), 'index.sqlite') } });
		return { code: result.status, stdout: result.stdout, stderr: result.stderr };
	}

	function agentWithSessions(): string {
		const agentDir = join(temp(), 'agent');
		const sources = [...realSessionFiles(), join(piCondenseSessionsDir, 'large-bulk-2.9.1', 'session.jsonl')];
		sources.forEach((source, i) => {
			const folder = join(agentDir, 'sessions', `--p${i % 2}--`);
			mkdirSync(folder, { recursive: true });
			copyFileSync(source, join(folder, `s${i}.jsonl`));
		});
		writeSession(agentDir, 'mine', 'mine.jsonl', headerLine('0123abcd-mine', temp()) + userLine('u1', 'my own project: where is the flux capacitor?', Date.UTC(2026, 0, 2)));
		return agentDir;
	}

	it('list prints what it prints without the index, cold and warm, as text and JSON', () => {
		const agentDir = agentWithSessions();
		for (const json of [[], ['--json']]) {
			const without = run('list', '--agent-dir', agentDir, '--no-index', ...json);
			assert.equal(without.code, 0, without.stderr);
			const cold = run('list', '--agent-dir', agentDir, ...json);
			const warm = run('list', '--agent-dir', agentDir, ...json);
			assert.equal(cold.stdout, without.stdout);
			assert.equal(warm.stdout, without.stdout);
			assert.equal(`${cold.stderr}${warm.stderr}`, '', 'no progress line when stderr is not a terminal');
		}
	});

	it('--latest and an id prefix are found through the index', () => {
		const agentDir = agentWithSessions();
		const latest = run('status', '--latest', '--agent-dir', agentDir);
		assert.equal(latest.code, 0, latest.stderr);
		assert.match(latest.stderr, /mine\.jsonl/);
		const prefix = run('status', '0123ab', '--agent-dir', agentDir);
		assert.equal(prefix.code, 0, prefix.stderr);
		const ambiguous = run('status', 'd703', '--agent-dir', agentDir);
		assert.equal(ambiguous.code, 2);
		assert.match(ambiguous.stderr, /starts \d+ session ids/);
	});

	it('a relative agent directory is taken from the working folder: the index keeps absolute paths, one row per file', async () => {
		const agentDir = agentWithSessions();
		const sessions = join(agentDir, 'sessions');
		const files = readdirSync(sessions).flatMap((folder) => readdirSync(join(sessions, folder)).map((name) => join(sessions, folder, name))).sort();
		for (const named of ['agent', './agent/', agentDir]) {
			const listed = run('list', '--agent-dir', named, '--json');
			assert.equal(listed.code, 0, listed.stderr);
		}
		const found = run('search', 'flux', '--json', '--agent-dir', 'agent');
		assert.deepEqual((JSON.parse(found.stdout) as { path: string }[]).map((session) => session.path), [join(sessions, '--mine--', 'mine.jsonl')]);
		const { index } = await openTestIndex(join(temp(), 'index.sqlite'));
		try {
			const rows = await index?.stored([sessionsRoot(agentDir)]);
			assert.deepEqual(rows?.map((row) => row.path).sort(), files);
		} finally {
			await index?.close();
		}
	});

	it('search prints the sessions and messages where the words occur, best first, and as JSON', () => {
		const agentDir = agentWithSessions();
		const text = run('search', 'flux', 'capacitor', '--agent-dir', agentDir);
		assert.equal(text.code, 0, text.stderr);
		assert.match(text.stdout, /^my own project: where is the flux capacitor\? · 0123abcd · /);
		assert.match(text.stdout, /line 2 · user/);
		const json = run('search', 'flux capacitor', '--json', '--agent-dir', agentDir);
		const parsed = JSON.parse(json.stdout) as { id: string; messages: { line: number; role: string; text: string; marks: number[][] }[] }[];
		assert.deepEqual(parsed.map((session) => session.id), ['0123abcd-mine']);
		assert.equal(parsed[0]?.messages[0]?.role, 'user');
		assert.equal(parsed[0]?.messages[0]?.marks.length, 2);
		const none = run('search', 'nothing-matches-this-zzz', '--agent-dir', agentDir);
		assert.match(none.stdout, /No message of a Pi session holds all of/);
		const off = run('search', 'flux', '--no-index', '--agent-dir', agentDir);
		assert.equal(off.code, 2);
		assert.match(off.stderr, /search needs the session index/);
	});

	it('a warm list answers from the list snapshot without opening the index, and only while every file is as it was', () => {
		const agentDir = agentWithSessions();
		const indexPath = join(temp(), 'index.sqlite');
		const snapshot = `${indexPath}.list.json`;
		const list = (): string => {
			const result = run('list', '--agent-dir', agentDir, '--json');
			assert.equal(result.code, 0, result.stderr);
			assert.equal(result.stderr, '');
			return result.stdout;
		};
		const fromFiles = (): string => run('list', '--agent-dir', agentDir, '--json', '--no-index').stdout;
		list();
		assert.ok(existsSync(snapshot));
		assert.equal(statSync(snapshot).mode & 0o777, 0o600, 'private, like the index: it holds first messages');
		// The index made unusable: opening it would say so on stderr and move it aside. A warm list never opens it.
		const index = readFileSync(indexPath);
		writeFileSync(indexPath, 'not a database '.repeat(100));
		assert.equal(list(), fromFiles());
		assert.equal(readFileSync(indexPath, 'utf8'), 'not a database '.repeat(100));
		writeFileSync(indexPath, index);
		// Each change to the files is seen: the index is brought up to date and the snapshot written again.
		const mine = join(agentDir, 'sessions', '--mine--', 'mine.jsonl');
		const changes: (() => void)[] = [
			() => appendFileSync(mine, assistantLine('a9', 'an appended answer', Date.UTC(2026, 0, 3))),
			() => writeSession(agentDir, 'mine', 'new.jsonl', headerLine('4567-new', temp()) + userLine('u1', 'a new session', Date.UTC(2026, 0, 4))),
			() => rmSync(join(agentDir, 'sessions', '--mine--', 'new.jsonl')),
			() => renameSync(join(agentDir, 'sessions', '--p0--', 's0.jsonl'), join(agentDir, 'sessions', '--mine--', 's0.jsonl')),
			() => {
				const copy = join(temp(), 'copy.jsonl');
				copyFileSync(mine, copy);
				renameSync(copy, mine); // same bytes, another inode
			},
		];
		for (const change of changes) {
			change();
			const expected = fromFiles();
			assert.equal(list(), expected);
			assert.equal(list(), expected);
		}
		// A damaged snapshot is not read.
		writeFileSync(snapshot, '{"version": 1, "roots": [], "rows": [[1]]}');
		assert.equal(list(), fromFiles());
	});

	it('clearing the index deletes its list snapshot', async () => {
		const agentDir = agentWithSessions();
		const indexPath = join(temp(), 'index.sqlite');
		run('list', '--agent-dir', agentDir);
		assert.ok(existsSync(`${indexPath}.list.json`));
		const { index } = await openTestIndex(indexPath);
		assert.ok(index);
		await index.clear();
		await index.close();
		assert.ok(!existsSync(`${indexPath}.list.json`));
	});

	it('rejects --index without a path, and --index with --no-index', () => {
		assert.match(run('list', '--index').stderr, /--index needs the path/);
		assert.match(run('list', '--index', 'x', '--no-index').stderr, /do not go together/);
	});
});
