/**
 * `pi-condense costs --all` from the session index, end to end through `node dist/cli.js`: over an agent dir
 * holding every reference and real session (several projects, Pi 1.6.0 sessions pruned by real pi-condense
 * 2.9.1, real sessions with cache reads, writes and rebuilds, compactions) and a fork of a real session
 * with one request of its own, the report from the index is the report the files give (`--no-index`);
 * the fork's copied requests count once; and a warm run answers from the index alone: its prune
 * accounts are kept there, no session file is read again.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { HistoryGroup, HistoryReport } from '../../../src/engine/costs';
import { piCondenseSessionsDir, realSessionFiles, repoRoot } from '../../support/paths';
import { referenceAgentDir, type ReferenceAgentDir } from '../../support/referenceAgentDir';
import { copySession } from '../../support/referenceFolders.mjs';

const CLI = join(repoRoot, 'dist', 'cli.js');
const WHOLE_SECOND = 1_764_000_000;

function run(dir: ReferenceAgentDir, index: string | undefined, ...args: string[]): { stdout: string; stderr: string; status: number | null } {
	const env = { ...process.env, PI_CODING_AGENT_DIR: dir.agentDir, TZ: 'UTC' };
	return spawnSync(process.execPath, [CLI, ...args, ...(index === undefined ? ['--no-index'] : ['--index', index])], { cwd: dir.agentDir, encoding: 'utf8', env });
}

function report(dir: ReferenceAgentDir, index: string | undefined): HistoryReport {
	const result = run(dir, index, 'costs', '--all', '--json');
	assert.equal(result.status, 0, result.stderr);
	return JSON.parse(result.stdout) as HistoryReport;
}

/** Figures compared to a billionth of a dollar: sums taken in another order differ in the last bits. */
function rounded(value: unknown): unknown {
	return JSON.parse(JSON.stringify(value, (_key, item: unknown) => (typeof item === 'number' && !Number.isInteger(item) ? Math.round(item * 1e9) / 1e9 : item))) as unknown;
}

function groups(list: readonly HistoryGroup[]): unknown {
	return rounded(list.map((group) => [group.key, group.sums, group.rebuilds, group.pruning]));
}

/** Pi's /fork of `source`: a new header naming it, its first `kept` lines' entries as they are, then one request of the fork's own. */
function fork(source: string, kept: number): { text: string; ownRequests: number } {
	const lines = readFileSync(source, 'utf8').trimEnd().split('\n');
	const header = JSON.parse(lines[0] as string) as Record<string, unknown>;
	const copied = lines.slice(1, kept);
	const last = [...copied].reverse().map((line) => JSON.parse(line) as Record<string, unknown>).find((entry) => (entry.message as { role?: string } | undefined)?.role === 'assistant');
	assert.ok(last, 'the copied part holds a reply');
	const own = { ...last, id: 'f0f0f0f0', parentId: last.id, timestamp: '2026-12-04T10:00:00.000Z', message: { ...(last.message as object), timestamp: Date.parse('2026-12-04T10:00:00.000Z') } };
	const child = { ...header, id: '01bbbbbb-0000-7000-8000-000000000002', timestamp: '2026-12-04T09:00:00.000Z', parentSession: source };
	return { text: `${[JSON.stringify(child), ...copied, JSON.stringify(own)].join('\n')}\n`, ownRequests: 1 };
}

describe('pi-condense costs --all from the session index', function () {
	this.timeout(180_000);
	let dir: ReferenceAgentDir;
	let indexFolder: string;
	let placed: string;
	before(() => {
		dir = referenceAgentDir('large-bulk-2.9.1');
		for (const folder of readdirSync(piCondenseSessionsDir, { withFileTypes: true })) {
			if (folder.isDirectory() && folder.name !== 'large-bulk-2.9.1') {
				copySession(join(piCondenseSessionsDir, folder.name, 'session.jsonl'), join(dir.agentDir, 'sessions'), { cwd: `/work/${folder.name}`, withBlobs: true });
			}
		}
		for (const file of realSessionFiles()) {
			const { path } = copySession(file, join(dir.agentDir, 'sessions'), { cwd: '/work/real' });
			if (file.endsWith('large-session.jsonl')) {
				placed = path;
			}
		}
		indexFolder = mkdtempSync(join(tmpdir(), 'pi-condense-costs-index-'));
		// A whole second, so that the warm check below can set the same time again exactly.
		utimesSync(dir.sessionFile, WHOLE_SECOND, WHOLE_SECOND);
	});
	after(() => {
		dir.cleanup();
		rmSync(indexFolder, { recursive: true, force: true });
	});

	it('equals the report read from the files, a fork counted once, and answers warm from the index alone', () => {
		const index = join(indexFolder, 'index.sqlite');
		const before = report(dir, index);
		assert.ok(before.rebuilds.count > 0 && before.pruning.prunes > 0, 'the history has cache rebuilds and accounted prunes');

		const { text, ownRequests } = fork(placed, 200);
		writeFileSync(join(dirname(placed), '2026-12-04T09-00-00-000Z_01bbbbbb-0000-7000-8000-000000000002.jsonl'), text);
		const fromFiles = report(dir, undefined);
		const fromIndex = report(dir, index);
		assert.equal(fromIndex.sessions, before.sessions + 1);
		assert.equal(fromIndex.totals.requests, before.totals.requests + ownRequests, 'the fork adds its own request only');
		assert.equal(fromIndex.rebuilds.count, before.rebuilds.count, 'the fork\'s copied rebuilds are its parent\'s');
		assert.deepEqual(rounded([fromIndex.sessions, fromIndex.totals, fromIndex.rebuilds, fromIndex.pruning]), rounded([fromFiles.sessions, fromFiles.totals, fromFiles.rebuilds, fromFiles.pruning]));
		assert.deepEqual(groups(fromIndex.byProjectWeek), groups(fromFiles.byProjectWeek));
		assert.deepEqual(groups(fromIndex.byDay), groups(fromFiles.byDay));
		assert.deepEqual(groups(fromIndex.bySession), groups(fromFiles.bySession));
		assert.deepEqual(groups(fromIndex.mostExpensive), groups(fromFiles.mostExpensive));
		assert.deepEqual(rounded(fromIndex.settings), rounded(fromFiles.settings));

		// Warm: the pruned session's bytes replaced (same size, time and inode): only a reading of the file would notice.
		const pruned = dir.sessionFile;
		writeFileSync(pruned, ' '.repeat(statSync(pruned).size));
		utimesSync(pruned, WHOLE_SECOND, WHOLE_SECOND);
		const warm = run(dir, index, 'costs', '--all', '--json');
		assert.equal(warm.status, 0, warm.stderr);
		assert.equal(warm.stderr, '', 'no file read, nothing to say');
		assert.deepEqual(rounded(JSON.parse(warm.stdout)), rounded(fromIndex));
	});
});
