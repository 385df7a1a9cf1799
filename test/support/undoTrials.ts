/**
 * Trials of Undo Last Prune (`undoAppend`) against a simulated Pi appending to the same file at the
 * same time, as the writer's own concurrent-writer trials do (`concurrentWriterTrials.ts`): our
 * lines are written, then the simulated Pi (a separate process, chaining from its own leaf, never
 * re-reading the file) appends a few lines at random moments while the undo runs.
 *
 * What must hold in every trial: the undo either removes exactly our lines (the file is then the
 * original bytes, byte for byte, followed by whatever the simulated Pi appended after the
 * truncation) or refuses and changes nothing (the file is the original, our lines and every Pi
 * line, in order); Pi's own SessionManager reads every line left. The one exception is the
 * documented residual race (`undoAppend.ts`): a Pi append that lands between the last-moment check
 * and the truncation is cut with our lines. Such a line is counted, not failed, only when its
 * append (the simulator's monotonic clock, before and after `appendFileSync`) overlaps that window
 * (the undo's clock, right before the last check and right after the truncation); a line lost at any
 * other time fails the trial.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { EntryDraft } from '../../src/engine/write';
import { undoAppend, writeEntriesToSession, type UndoResult } from '../../src/node/write';
import { loadPi } from './pi';
import { Random } from './random';
import { SessionBuilder, text } from './sessionBuilder';
import type { SimulatedPiReply } from './simulatedPi';
import { SimulatedPi } from './simulatedPiProcess';
import { noPiRunning, TempDir } from './tempSession';
import { testWork } from './testWork';

export interface UndoTrialsSummary {
	undone: number;
	refused: Record<string, number>;
	piLines: number;
	/** Trials where a Pi line fell in the residual window (counted, as the writer counts its disturbances). */
	readonly residualRaces: string[];
	readonly failures: string[];
}

export async function runUndoTrials(options: { readonly seed: number; readonly first?: number; readonly count: number; readonly onProgress?: (done: number) => void }): Promise<UndoTrialsSummary> {
	const pi = await loadPi();
	const simulator = new SimulatedPi();
	const dir = new TempDir();
	const summary: UndoTrialsSummary = { undone: 0, refused: {}, piLines: 0, residualRaces: [], failures: [] };
	const first = options.first ?? 0;
	try {
		for (let trial = first; trial < first + options.count; trial++) {
			try {
				await runTrial(trial, options.seed, simulator, dir, summary, pi);
			} catch (error) {
				summary.failures.push(error instanceof Error ? error.message : String(error));
			}
			options.onProgress?.(trial - first + 1);
		}
	} finally {
		await simulator.close();
		dir.remove();
	}
	return summary;
}

async function runTrial(trial: number, seed: number, simulator: SimulatedPi, dir: TempDir, summary: UndoTrialsSummary, pi: Awaited<ReturnType<typeof loadPi>>): Promise<void> {
	const random = new Random(seed + trial);
	const builder = new SessionBuilder();
	builder.user('start');
	builder.assistant([text('ready')]);
	const initial = builder.text();
	const file = dir.file(`undo-${trial}.jsonl`, initial, 0);
	const drafts: EntryDraft[] = Array.from({ length: random.int(1, 4) }, (_, n): EntryDraft => ({
		type: 'custom', customType: 'context-prune-index', data: { trial, n, blob: 'z'.repeat(random.int(0, 30_000)) },
	}));
	const written = await writeEntriesToSession(testWork, file, drafts, { checkPiHolders: noPiRunning, quietMs: 0, maxWaitMs: 0 });
	const context = `trial ${trial} (seed ${seed}; alone: PI_CONDENSE_SEED=${seed} PI_CONDENSE_TRIAL=${trial})`;
	if (written.kind !== 'written' || !written.written) {
		throw new Error(`${context}: the write itself was ${written.kind}`);
	}
	const afterWrite = readFileSync(file, 'utf8');
	const piRun: Promise<SimulatedPiReply> = random.chance(0.85)
		? simulator.append({ file, leafId: builder.leafId as string, entries: random.int(1, 6), maxDelayMs: random.int(0, 4), seed: random.int(0, 2 ** 31 - 1) })
		: Promise.resolve({ lines: [], appendedAt: [] });
	await new Promise((done) => setTimeout(done, random.int(0, 8)));
	const window: { checked?: bigint; truncated?: bigint } = {};
	const result = await undoAppend(file, written.written, {
		checkPiHolders: noPiRunning,
		// The window opens right before the last-moment fstat: a line appended after it is not seen by it.
		hooks: { beforeLastCheck: () => (window.checked = process.hrtime.bigint()), afterTruncate: () => (window.truncated = process.hrtime.bigint()) },
	});
	const piReply = await piRun;
	const outcome = `${context}: ${result.kind === 'undone' ? 'undone' : `refused (${result.code}: ${result.reason})`}`;
	const lost = checkTrial(file, { initial, afterWrite, result, piReply, window }, outcome);
	if (lost > 0) {
		summary.residualRaces.push(`${outcome}: ${lost} Pi line(s) appended inside the residual window were cut`);
	}
	const opened = pi.SessionManager.open(file, dir.path);
	const ours = result.kind === 'undone' ? 0 : drafts.length;
	assert.equal(opened.getEntries().length, initial.split('\n').length - 2 + ours + piReply.lines.length - lost, `${outcome}: Pi does not read every line left`);
	summary.piLines += piReply.lines.length;
	if (result.kind === 'undone') {
		summary.undone++;
	} else {
		summary.refused[result.code] = (summary.refused[result.code] ?? 0) + 1;
	}
}

interface TrialState {
	readonly initial: string;
	readonly afterWrite: string;
	readonly result: UndoResult;
	readonly piReply: SimulatedPiReply;
	readonly window: { readonly checked?: bigint; readonly truncated?: bigint };
}

/** The file is what the outcome says, byte for byte; returns how many Pi lines the residual window cut. */
function checkTrial(file: string, { initial, afterWrite, result, piReply, window }: TrialState, outcome: string): number {
	const content = readFileSync(file, 'utf8');
	const piText = piReply.lines.join('');
	if (result.kind === 'refused') {
		assert.equal(content, afterWrite + piText, `${outcome}: a refused undo changed the file or lost a line`);
		return 0;
	}
	if (content === initial + piText) {
		return 0;
	}
	// Only lines whose append overlaps [checked, truncated] may be missing, and only those.
	const { checked, truncated } = window;
	assert.ok(checked !== undefined && truncated !== undefined, `${outcome}: the undo did not say when it checked and truncated`);
	const inWindow = piReply.lines.map((_, i) => {
		const [start, end] = (piReply.appendedAt[i] ?? ['0', '0']).map(BigInt) as [bigint, bigint];
		return start <= truncated && end >= checked;
	});
	const kept = piReply.lines.filter((_, i) => !inWindow[i]).join('');
	assert.equal(content, initial + kept, `${outcome}: the file is not the original followed by the Pi lines appended after the undo`);
	return inWindow.filter(Boolean).length;
}

export function describeUndoTrials(summary: UndoTrialsSummary): string {
	return `undone ${summary.undone}, refused ${JSON.stringify(summary.refused)}, ${summary.piLines} simulated-Pi lines, `
		+ `${summary.residualRaces.length} residual race(s), ${summary.failures.length} failure(s)`;
}
