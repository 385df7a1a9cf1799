/**
 * Per session, day and month, our totals against `@ccusage/pi` (a dev dependency, run for real on the same
 * files): the reference and real sessions, and a fork of a real session. ccusage counts assistant replies
 * only (Pi 1.x's `usage` entries, a compaction's or branch summary's usage and a tool's own usage are not
 * read), so it is compared with our replies; our session totals (Pi's) add the rest, which the last check
 * shows is exactly the difference. Why the figures can differ is in docs/costs.md ("ccusage").
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { historyReport, NO_PRICES, sessionOverviewSteps, sessionRows, type HistoryGroup, type RequestRow, type SessionRow } from '../../../../src/engine/costs';
import { exactSum } from '../../../../src/engine/costs/exactSum';
import { parseSessionSteps } from '../../../../src/engine/session';
import { runSteps } from '../../../../src/engine/steps';
import { piCondenseSessionsDir, realSessionFiles, repoRoot } from '../../../support/paths';
import { useTempDir } from '../../../support/tempDirs';

const CCUSAGE = join(repoRoot, 'node_modules', '@ccusage', 'pi', 'dist', 'index.js');

interface CcRow { readonly inputTokens: number; readonly outputTokens: number; readonly cacheCreationTokens: number; readonly cacheReadTokens: number; readonly totalCost: number }
interface CcSession extends CcRow { readonly sessionId: string }
interface CcDay extends CcRow { readonly date: string }
interface CcMonth extends CcRow { readonly month: string }

function ccusage<T>(command: 'daily' | 'monthly' | 'session', sessionsDir: string): T {
	const run = spawnSync(process.execPath, [CCUSAGE, command, '--json', '--timezone', 'UTC', '--piPath', sessionsDir], { encoding: 'utf8', env: { ...process.env, LOG_LEVEL: '0' } });
	assert.equal(run.status, 0, `ccusage ${command} failed: ${run.stderr}`);
	return JSON.parse(run.stdout) as T;
}

/** A file as Pi names it, in a project folder of `sessionsDir`. */
function place(sessionsDir: string, project: string, text: string): string {
	const header = JSON.parse(text.slice(0, text.indexOf('\n'))) as { id: string; timestamp: string };
	const folder = join(sessionsDir, project);
	mkdirSync(folder, { recursive: true });
	const path = join(folder, `${header.timestamp.replace(/[:.]/g, '-')}_${header.id}.jsonl`);
	writeFileSync(path, text);
	return path;
}

/** Our rows for every file of `sessionsDir`. */
function ourHistory(sessionsDir: string): { requests: RequestRow[]; sessions: SessionRow[] } {
	const requests: RequestRow[] = [];
	const sessions: SessionRow[] = [];
	for (const project of readdirSync(sessionsDir)) {
		for (const name of readdirSync(join(sessionsDir, project))) {
			const path = join(sessionsDir, project, name);
			const model = runSteps(parseSessionSteps(readFileSync(path, 'utf8')));
			const { timeline, rebuilds } = runSteps(sessionOverviewSteps(model.entries, NO_PRICES));
			const rows = sessionRows({ path, header: model.header as NonNullable<typeof model.header>, entries: model.entries, timeline, rebuilds });
			requests.push(...rows.requests);
			sessions.push(rows.session);
		}
	}
	return { requests, sessions };
}

function assertSame(ours: HistoryGroup['sums'] | undefined, theirs: CcRow | undefined, label: string): void {
	assert.ok(ours && theirs, `${label}: missing on one side (ours ${String(!!ours)}, ccusage ${String(!!theirs)})`);
	assert.deepEqual([ours.input, ours.output, ours.cacheWrite, ours.cacheRead], [theirs.inputTokens, theirs.outputTokens, theirs.cacheCreationTokens, theirs.cacheReadTokens], `${label}: tokens`);
	assert.ok(Math.abs(ours.cost - theirs.totalCost) <= 1e-9 * Math.max(1, theirs.totalCost), `${label}: cost ${ours.cost} ≠ ${theirs.totalCost}`);
}

function assertDaysAndMonths(sessionsDir: string, replies: readonly RequestRow[], sessions: readonly SessionRow[], label: string): void {
	const report = historyReport(replies, sessions, { timeZone: 'UTC' });
	const days = ccusage<{ daily: CcDay[] }>('daily', sessionsDir).daily;
	assert.deepEqual(report.byDay.map((day) => day.key), days.map((day) => day.date).sort(), `${label}: days`);
	for (const day of days) {
		assertSame(report.byDay.find((ours) => ours.key === day.date)?.sums, day, `${label}: ${day.date}`);
	}
	const months = ccusage<{ monthly: CcMonth[] }>('monthly', sessionsDir).monthly;
	assert.deepEqual(report.byMonth.map((month) => month.key), months.map((month) => month.month).sort(), `${label}: months`);
	for (const month of months) {
		assertSame(report.byMonth.find((ours) => ours.key === month.month)?.sums, month, `${label}: ${month.month}`);
	}
}

/**
 * A fork as Pi's /fork writes it: a new header naming the parent, the parent's entries up to the fork point as
 * they are (same ids, timestamps, usage), then the child's own requests.
 */
function forkOf(parentText: string, parentPath: string, keep: number): string {
	const lines = parentText.trimEnd().split('\n');
	const header = JSON.parse(lines[0] as string) as Record<string, unknown>;
	const copied = lines.slice(1, 1 + keep);
	const last = JSON.parse(copied.at(-1) as string) as { id: string };
	const own = [0, 1, 2].map((i) => JSON.stringify({
		type: 'message', id: `f0${i}c0de0`, parentId: i === 0 ? last.id : `f0${i - 1}c0de0`, timestamp: `2025-12-01T10:0${i}:00.000Z`,
		message: { role: 'assistant', content: [{ type: 'text', text: `fork ${i}` }], api: 'anthropic-messages', provider: 'anthropic', model: 'claude-sonnet-4-5', usage: { input: 3, output: 40 + i, cacheRead: 50_000 + i, cacheWrite: 700, totalTokens: 50_743 + 2 * i, cost: { input: 0.000009, output: 0.0006, cacheRead: 0.015, cacheWrite: 0.0026, total: 0.018209 + i / 1000 } }, stopReason: 'stop', timestamp: Date.parse(`2025-12-01T10:0${i}:00.000Z`) - 500 },
	}));
	return [JSON.stringify({ ...header, id: '0f0f0f0f-aaaa-4bbb-8ccc-123456789abc', timestamp: '2025-12-01T09:59:00.000Z', parentSession: parentPath }), ...copied, ...own].map((line) => `${line}\n`).join('');
}

describe('costs: totals per session, day and month equal @ccusage/pi\'s', function () {
	this.timeout(120_000);
	const temp = useTempDir('costs-ccusage');

	const reference = (): string[] => readdirSync(piCondenseSessionsDir, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => join(piCondenseSessionsDir, entry.name, 'session.jsonl'));

	it('each reference and real session alone: per session, day and month', () => {
		for (const file of [...realSessionFiles(), ...reference()].sort()) {
			const sessionsDir = join(temp(), basename(file, '.jsonl') + basename(join(file, '..')), 'sessions');
			const path = place(sessionsDir, '--home-dev-project--', readFileSync(file, 'utf8'));
			const { requests, sessions } = ourHistory(sessionsDir);
			const replies = requests.filter((row) => row.kind === 'reply');
			const ours = historyReport(replies, sessions, { timeZone: 'UTC' }).bySession.find((group) => group.key === path);
			const theirs = ccusage<{ sessions: CcSession[] }>('session', sessionsDir).sessions;
			assert.equal(theirs.length, 1, file);
			assertSame(ours?.sums, theirs[0], `${file}: session`);
			assertDaysAndMonths(sessionsDir, replies, sessions, file);
		}
	});

	it('a history with a fork counts each request once: the total is the sum over distinct requests, as ccusage\'s', () => {
		const sessionsDir = join(temp(), 'sessions');
		const parentText = readFileSync(join(realSessionFiles().find((file) => file.endsWith('large-session.migrated-v3.jsonl')) as string), 'utf8');
		const parent = place(sessionsDir, '--Users-badlogic-workspaces-pi-mono--', parentText);
		const child = place(sessionsDir, '--Users-badlogic-workspaces-pi-mono--', forkOf(parentText, parent, 400));
		for (const file of reference().filter((path) => !path.includes('large-bulk'))) {
			place(sessionsDir, '--home-dev-project--', readFileSync(file, 'utf8'));
		}
		const { requests, sessions } = ourHistory(sessionsDir);
		const replies = requests.filter((row) => row.kind === 'reply');
		const report = historyReport(replies, sessions, { timeZone: 'UTC' });
		// By hand: the distinct requests are the parent's 453 and the fork's own 3; every other file's are its own.
		const distinct = new Map(replies.map((row) => [`${row.entryId}|${row.entryTimestamp}|${row.tokens.totalTokens}|${row.cost.total}`, row]));
		assert.equal(report.totals.requests, distinct.size);
		// Summed exactly, as the report sums (a float sum left to right differs in its last bits with the order).
		assert.equal(report.totals.cost, exactSum([...distinct.values()].map((row) => row.cost.total)));
		const bySession = new Map(report.bySession.map((group) => [group.key, group.sums]));
		assert.equal(bySession.get(parent)?.requests, 453, 'the parent owns what it made');
		assert.equal(bySession.get(child)?.requests, 3, 'the fork owns only its own requests');
		assert.equal(bySession.get(child)?.cost.toFixed(6), (0.018209 * 3 + 0.003).toFixed(6));
		const theirs = ccusage<{ sessions: CcSession[]; totals: CcRow }>('session', sessionsDir);
		assertSame(report.totals, theirs.totals, 'history totals');
		// ccusage gives a shared request to whichever file it reads first; the family's sum is the same either way.
		const family = (id: (s: string) => boolean): CcRow[] => theirs.sessions.filter((session) => id(session.sessionId));
		const parentId = (JSON.parse(parentText.slice(0, parentText.indexOf('\n'))) as { id: string }).id;
		const ccFamily = family((id) => id === '0f0f0f0f-aaaa-4bbb-8ccc-123456789abc' || id === parentId);
		assert.equal(ccFamily.length, 2);
		const sum = (rows: readonly CcRow[], pick: (row: CcRow) => number): number => rows.reduce((total, row) => total + pick(row), 0);
		assert.equal(sum(ccFamily, (row) => row.cacheReadTokens), (bySession.get(parent)?.cacheRead ?? 0) + (bySession.get(child)?.cacheRead ?? 0));
		assertDaysAndMonths(sessionsDir, replies, sessions, 'history with a fork');
	});

	it('our session totals (Pi\'s) differ from ccusage\'s exactly by the usage that is not an assistant reply', () => {
		const file = join(piCondenseSessionsDir, 'context-edits-pi-1.6.0', 'session.jsonl');
		const sessionsDir = join(temp(), 'sessions');
		place(sessionsDir, '--home-dev-project--', readFileSync(file, 'utf8'));
		const { requests, sessions } = ourHistory(sessionsDir);
		const all = historyReport(requests, sessions, { timeZone: 'UTC' }).totals;
		const theirs = ccusage<{ sessions: CcSession[]; totals: CcRow }>('session', sessionsDir).totals;
		const others = requests.filter((row) => row.kind !== 'reply');
		assert.ok(others.length > 0, 'the file has a usage entry');
		assert.equal(all.input - others.reduce((sum, row) => sum + row.tokens.input, 0), theirs.inputTokens);
		assert.equal(all.cacheRead - others.reduce((sum, row) => sum + row.tokens.cacheRead, 0), theirs.cacheReadTokens);
	});
});
