/**
 * The bounded crash-safety run of `npm test` (`npm run stress` runs 1,000 flush kills and 400 writer
 * kills): a flush, or the writer alone, killed with SIGKILL at random moments on copies of real
 * sessions, from a fixed seed (`PI_CONDENSE_CRASH_SEED` sets another; fresh seeds are `npm run
 * stress`'s). See `test/support/crash/` for what is checked after each kill.
 */
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeEntriesToSession } from '../../src/node/write';
import { runCrashTrials } from '../support/crash/crashHarness';
import { runFlushCrashTrials } from '../support/crash/flushCrashHarness';
import { piCondenseSessionsDir } from '../support/paths';
import { loadPi } from '../support/pi';
import { useTempDir } from '../support/tempDirs';
import { makeOld, noPiRunning } from '../support/tempSession';
import { testWork } from '../support/testWork';

describe('crash safety of write-back (bounded)', function () {
	this.timeout(180_000);
	const baseSeed = Number(process.env['PI_CONDENSE_CRASH_SEED'] ?? 1000);

	it('a flush (now or compact) killed anywhere: every earlier entry reads in Pi, our lines are whole, the next flush does what the release does on that file', async () => {
		const summary = await runFlushCrashTrials({ baseSeed, trials: 10 });
		console.log(`      flush kills, seeds ${baseSeed}..${baseSeed + 9}: ${JSON.stringify(summary.outcomes)}, ${summary.linesBeforeKill} lines written before the kills, ${summary.leftChainsForCompact} resumed now(s) left chains for compact`);
		assert.deepEqual(summary.failures, []);
	});

	it('the writer killed anywhere in its write: the next write completes the work once', async () => {
		const summary = await runCrashTrials({ baseSeed, trials: 12, hugeLines: false });
		const huge = await runCrashTrials({ baseSeed: baseSeed + 12, trials: 3, hugeLines: true });
		console.log(`      writer kills, seeds ${baseSeed}..${baseSeed + 14}: ${JSON.stringify(summary.outcomes)}, with megabyte lines ${JSON.stringify(huge.outcomes)}`);
		assert.deepEqual([...summary.failures, ...huge.failures], []);
	});
});

describe('a line cut by a kill inside write(2)', () => {
	const temp = useTempDir('cut-line');

	/** A copy of the basic session ending with the first bytes of a line of ours, cut inside a character. */
	function cutSession(): { path: string; entries: number; lines: number } {
		const path = join(temp(), 'session.jsonl');
		const text = readFileSync(join(piCondenseSessionsDir, 'basic', 'session.jsonl'), 'utf8');
		const ours = Buffer.from(`${JSON.stringify({ type: 'custom', customType: 'context-prune-index', data: { toolCalls: [{ resultText: 'é✓'.repeat(4000) }] }, id: 'c0ffee00', parentId: null, timestamp: '2026-06-01T12:00:00.000Z' })}\n`);
		writeFileSync(path, Buffer.concat([Buffer.from(text), ours.subarray(0, 4097)]));
		makeOld(path);
		const lines = text.split('\n').length - 1;
		return { path, entries: lines - 1, lines };
	}

	async function piEntries(path: string): Promise<readonly unknown[]> {
		const pi = await loadPi();
		return pi.SessionManager.open(path, temp()).getEntries();
	}

	it('Pi still reads every earlier entry, and the writer refuses, naming the line and what to do', async () => {
		const { path, entries, lines } = cutSession();
		assert.equal((await piEntries(path)).length, entries);
		const before = readFileSync(path);
		const result = await writeEntriesToSession(testWork, path, [{ type: 'custom', customType: 'x', data: {} }], { quietMs: 0, maxWaitMs: 0, checkPiHolders: noPiRunning });
		assert.equal(result.kind, 'refused');
		assert.equal(result.refusal.code, 'partial-line');
		assert.match(result.refusal.message, new RegExp(`unfinished line \\(line ${lines + 1}, no final newline\\)`));
		assert.match(result.refusal.advice, /end that line with a newline or delete it \(keep a copy of the file first\) before resuming the session in Pi, or Pi joins its next entry to it and that entry is lost/);
		assert.ok(readFileSync(path).equals(before));
	});

	it('the advice is right: Pi loses its next entry unless the line is ended first', async () => {
		const user = { role: 'user' as const, content: [{ type: 'text' as const, text: 'next prompt' }], timestamp: 1 };
		const pi = await loadPi();
		const lost = cutSession();
		pi.SessionManager.open(lost.path, temp()).appendMessage(user);
		assert.equal((await piEntries(lost.path)).length, lost.entries, 'Pi\'s new entry was joined to the cut line and is gone');
		const kept = cutSession();
		appendFileSync(kept.path, '\n');
		pi.SessionManager.open(kept.path, temp()).appendMessage(user);
		assert.equal((await piEntries(kept.path)).length, kept.entries + 1, 'with the line ended, Pi\'s entry is kept');
	});
});
