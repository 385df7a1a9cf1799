/**
 * Crash safety of write-back: copies of real sessions, a writer process killed with SIGKILL at a
 * random moment of its write (`crashWorker.ts`), then checks that the file still starts with every
 * original byte, that Pi 0.73.1's own SessionManager reads every earlier entry, that what follows
 * is a prefix of our planned lines (byte-identical), and that a following write completes the work
 * with no entry twice.
 *
 * A kill inside write(2) of a line that spans pages can leave the line cut: Linux checks for a
 * fatal signal between pages. No appending writer can rule that out; such trials are counted as
 * `cut` and checked for what still holds (Pi reads every earlier entry, the writer refuses to
 * append after the cut line and says why and what to do).
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { parseSessionSteps, type SessionModel } from '../../../src/engine/session';
import { prepareEntriesSteps } from '../../../src/engine/write';
import { writeEntriesToSession } from '../../../src/node/write';
import { piCondenseSessionsDir, realSessionsDir, repoRoot } from '../paths';
import { loadPi } from '../pi';
import { Random } from '../random';
import { makeOld, noPiRunning } from '../tempSession';
import { readAppended, runAndKill } from './killWorker';
import { CRASH_CLOCK, crashPlan, crashRandomBytes, seqOf } from './crashPlan';
import { loadWritableSource, type WritableSource } from './writableSources';
import { runSteps } from '../../../src/engine/steps';
import { testWork } from '../testWork';

export interface CrashOptions {
	readonly baseSeed: number;
	readonly trials: number;
	/** Some entries of a few megabytes (kills then land inside write(2) too). */
	readonly hugeLines: boolean;
	readonly onProgress?: (done: number) => void;
}

export type CrashOutcome = 'before-write' | 'between-lines' | 'complete' | 'cut';

export interface CrashSummary {
	readonly trials: number;
	readonly outcomes: Readonly<Record<CrashOutcome, number>>;
	readonly failures: readonly string[];
}

const WORKER = join(repoRoot, 'out', 'test', 'support', 'crash', 'crashWorker.js');
const SOURCES = [
	join(realSessionsDir, 'large-session.migrated-v3.jsonl'),
	join(realSessionsDir, 'before-compaction.migrated-v3.jsonl'),
	join(realSessionsDir, 'pi-0.73.1-all-entry-types.synthetic.jsonl'),
	join(piCondenseSessionsDir, 'basic', 'session.jsonl'),
	join(piCondenseSessionsDir, 'large-bulk', 'session.jsonl'),
];

export async function runCrashTrials(options: CrashOptions): Promise<CrashSummary> {
	const sources = SOURCES.map((path) => loadWritableSource(path));
	const dir = mkdtempSync(join(tmpdir(), 'pi-condense-crash-'));
	const outcomes: Record<CrashOutcome, number> = { 'before-write': 0, 'between-lines': 0, 'complete': 0, 'cut': 0 };
	const failures: string[] = [];
	try {
		for (let trial = 0; trial < options.trials; trial++) {
			const seed = options.baseSeed + trial;
			try {
				const outcome = await runTrial(seed, sources, dir, options.hugeLines);
				outcomes[outcome]++;
			} catch (error) {
				failures.push(`seed ${seed}: ${error instanceof Error ? error.message : String(error)}`);
			}
			options.onProgress?.(trial + 1);
		}
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
	return { trials: options.trials, outcomes, failures };
}

async function runTrial(seed: number, sources: readonly WritableSource[], dir: string, hugeLines: boolean): Promise<CrashOutcome> {
	const random = new Random(seed);
	const source = random.pick(sources);
	const cut = random.pick(source.writableCuts);
	const original = `${source.lines.slice(0, cut).join('\n')}\n`;
	const path = join(dir, `trial-${seed}.jsonl`);
	writeFileSync(path, original);
	makeOld(path);
	const what = `${source.name} (${cut} lines)`;
	try {
		const model = runSteps(parseSessionSteps(original));
		const plan = crashPlan(seed, { hugeLines });
		const planned = runSteps(prepareEntriesSteps(plan.drafts, {
			parentId: model.leafId,
			isTaken: (id) => id === model.header?.id || model.entryById(id) !== undefined,
			randomBytes: crashRandomBytes(seed),
			now: CRASH_CLOCK,
		})).map((entry) => entry.line);
		const bytes = planned.reduce((sum, line) => sum + Buffer.byteLength(line), 0);
		// Kill somewhere in the write (a little before and after it, too).
		const estimateMs = planned.length * (plan.pauseMs + 0.3) + bytes / 400_000;
		await runAndKill({
			script: WORKER, args: [path, String(seed), hugeLines ? '1' : '0'], delayMs: random.next() * estimateMs * 1.3, early: random.chance(0.05),
			what: 'the writer', endedWell: (code) => code === 0,
		});
		return await checkAfterKill(path, original, model, planned, plan.drafts.length, seed);
	} catch (error) {
		throw new Error(`${what}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
	} finally {
		rmSync(path, { force: true });
	}
}

async function checkAfterKill(path: string, original: string, model: SessionModel, planned: readonly string[], total: number, seed: number): Promise<CrashOutcome> {
	const { bytes, complete, partial } = readAppended(path, original);
	const ours = complete === '' ? [] : complete.split(/(?<=\n)/);
	ours.forEach((line, i) => {
		if (line !== planned[i]) {
			throw new Error(`line ${i + 1} after the original is not our planned line, byte for byte`);
		}
	});
	const next = planned[ours.length];
	if (partial.length > 0 && (next === undefined || !Buffer.from(next, 'utf8').subarray(0, partial.length).equals(partial))) {
		throw new Error('the file ends with bytes that are not the start of our next line');
	}
	const text = bytes.toString('utf8');
	await checkPiReads(path, original, ours);
	const reread = runSteps(parseSessionSteps(text));
	if (reread.diagnostics.length > 0 || reread.entries.length !== model.entries.length + ours.length || reread.pendingTail !== partial.toString('utf8')) {
		throw new Error(`our reader after the kill: ${reread.diagnostics.length} diagnostic(s), ${reread.entries.length} entries, tail ${partial.length} bytes`);
	}
	if (partial.length > 0) {
		await checkCutLineRefused(path, bytes, reread);
		return 'cut';
	}
	await completeAndCheck(path, original, model, planned, total, seed);
	return ours.length === 0 ? 'before-write' : ours.length === total ? 'complete' : 'between-lines';
}

/** Pi's own SessionManager (on a copy: Pi may rewrite what it opens) reads every earlier entry, then ours. */
async function checkPiReads(path: string, original: string, ours: readonly string[]): Promise<void> {
	const pi = await loadPi();
	const dir = mkdtempSync(join(tmpdir(), 'pi-condense-crash-pi-'));
	try {
		const copy = join(dir, 'session.jsonl');
		copyFileSync(path, copy);
		const entries = pi.SessionManager.open(copy, dir).getEntries() as unknown[];
		const expected = [...original.split('\n').slice(1).filter((line) => line !== ''), ...ours].map((line) => JSON.parse(line) as unknown);
		if (!isDeepStrictEqual(entries, expected)) {
			throw new Error(`Pi reads ${entries.length} entries, expected ${expected.length} (every earlier entry, then ours)`);
		}
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

/** The following write finishes the trial's entries (only the missing ones) and the file reads cleanly. */
async function completeAndCheck(path: string, original: string, model: SessionModel, planned: readonly string[], total: number, seed: number): Promise<void> {
	const present = new Set(runSteps(parseSessionSteps(readFileSync(path, 'utf8'))).entries.flatMap((entry) => {
		const seq = seqOf(entry as unknown as Record<string, unknown>);
		return seq === undefined ? [] : [seq];
	}));
	const plan = crashPlan(seed, { hugeLines: planned.some((line) => line.length > 1_000_000) });
	const missing = plan.drafts.filter((_, seq) => !present.has(seq));
	if (missing.length > 0) {
		const result = await writeEntriesToSession(testWork, path, missing, { quietMs: 0, maxWaitMs: 0, checkPiHolders: noPiRunning });
		if (result.kind !== 'written') {
			throw new Error(`the following write was ${result.kind}: ${result.kind === 'refused' ? result.refusal.message : result.message}`);
		}
	}
	const final = runSteps(parseSessionSteps(readFileSync(path, 'utf8')));
	const seqs = final.entries.flatMap((entry) => {
		const seq = seqOf(entry as unknown as Record<string, unknown>);
		return seq === undefined ? [] : [seq];
	});
	if (final.diagnostics.length > 0 || seqs.length !== total || new Set(seqs).size !== total) {
		throw new Error(`after the following write: ${final.diagnostics.length} diagnostic(s), entries of ours by seq ${JSON.stringify(seqs)} (want each of 0..${total - 1} once)`);
	}
	if (final.entries.length !== model.entries.length + total) {
		throw new Error(`after the following write: ${final.entries.length} entries, want ${model.entries.length + total}`);
	}
	const text = readFileSync(path, 'utf8');
	await checkPiReads(path, original, text.slice(original.length).split(/(?<=\n)/).filter((line) => line !== ''));
}

/** After a cut line the writer refuses, naming the line and what to do, and leaves the file alone. */
async function checkCutLineRefused(path: string, before: Buffer, model: SessionModel): Promise<void> {
	const result = await writeEntriesToSession(testWork, path, [{ type: 'custom', customType: 'after-cut', data: {} }], { quietMs: 0, maxWaitMs: 0, checkPiHolders: noPiRunning });
	if (result.kind !== 'refused' || result.refusal.code !== 'partial-line') {
		throw new Error(`after a cut line the writer did not refuse (partial-line): ${result.kind}`);
	}
	const line = model.lineCount + 1;
	if (!result.refusal.message.includes(`line ${line}`) || !/newline/.test(result.refusal.advice)) {
		throw new Error(`the refusal does not name line ${line} and what to do: ${result.refusal.message} ${result.refusal.advice}`);
	}
	if (!readFileSync(path).equals(before)) {
		throw new Error('the refused write changed the file');
	}
}
