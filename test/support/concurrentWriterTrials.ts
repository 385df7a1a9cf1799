/**
 * Trials of our writer against a simulated Pi (simulatedPi.ts, a separate process appending
 * complete lines at random intervals, chaining from its own leaf) on the same file at the same
 * time. Our write either goes through, waits, or refuses, and no line of either writer is ever
 * lost, merged or damaged; when we report a clean write, our first entry's parent is the line
 * right before it in the file. Used by the reliability suite (fixed seed) and `npm run stress --
 * writers` (drawn seeds).
 *
 * Each trial is fully determined by `seed + trial`, so one failing trial can be run on its own.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseSessionSteps } from '../../src/engine/session';
import type { EntryDraft } from '../../src/engine/write';
import { writeEntriesToSession, type WriteEntriesResult } from '../../src/node/write';
import { loadPi, type PiModule } from './pi';
import { Random } from './random';
import { SessionBuilder, text } from './sessionBuilder';
import { SimulatedPi } from './simulatedPiProcess';
import { noPiRunning, TempDir } from './tempSession';
import { runSteps } from '../../src/engine/steps';
import { testWork } from './testWork';

export interface WriterTrialsOptions {
	readonly seed: number;
	/** Trials `first` … `first + count - 1`; trial n runs on seed `seed + n`. */
	readonly first?: number;
	readonly count: number;
	readonly onProgress?: (done: number) => void;
}

export interface WriterTrialsSummary {
	wrote: number;
	waitedThenWrote: number;
	refused: Record<string, number>;
	piLines: number;
	ourLines: number;
	/** Writes reported as disturbed: the documented residual race (see appendLines.ts), never silent. */
	readonly disturbances: string[];
	/** One message per failed trial, naming its trial number and seed. */
	readonly failures: string[];
}

export async function runWriterTrials(options: WriterTrialsOptions): Promise<WriterTrialsSummary> {
	const pi = await loadPi();
	const simulator = new SimulatedPi();
	const dir = new TempDir();
	const summary: WriterTrialsSummary = { wrote: 0, waitedThenWrote: 0, refused: {}, piLines: 0, ourLines: 0, disturbances: [], failures: [] };
	const first = options.first ?? 0;
	try {
		for (let trial = first; trial < first + options.count; trial++) {
			try {
				await runTrial(trial, options.seed, { pi, simulator, dir, summary });
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

interface TrialContext {
	readonly pi: PiModule;
	readonly simulator: SimulatedPi;
	readonly dir: TempDir;
	readonly summary: WriterTrialsSummary;
}

async function runTrial(trial: number, seed: number, { pi, simulator, dir, summary }: TrialContext): Promise<void> {
	const random = new Random(seed + trial);
	const builder = new SessionBuilder();
	builder.user('start');
	builder.assistant([text('ready')]);
	const initial = builder.text();
	const file = dir.file(`trial-${trial}.jsonl`, initial, 0);
	const drafts: EntryDraft[] = Array.from({ length: random.int(1, 3) }, (_, n): EntryDraft => n % 2 === 0
		? { type: 'custom', customType: 'context-prune-index', data: { trial, n, blob: 'y'.repeat(random.int(0, 20_000)) } }
		: { type: 'custom_message', customType: 'context-prune-summary', content: `summary ${trial}.${n}`, display: false });
	const piRun = simulator.append({ file, leafId: builder.leafId as string, entries: random.int(1, 10), maxDelayMs: random.int(0, 4), seed: random.int(0, 2 ** 31 - 1) });
	await new Promise((done) => setTimeout(done, random.int(0, 6)));
	const result = await writeEntriesToSession(testWork, file, drafts, {
		checkPiHolders: noPiRunning,
		quietMs: random.pick([0, 0, 2, 5]),
		maxWaitMs: random.pick([0, 10, 40]),
		pollMs: random.int(1, 4),
	});
	const { lines: piLines } = await piRun;
	const context = `trial ${trial} (seed ${seed}; alone: PI_CONDENSE_SEED=${seed} PI_CONDENSE_TRIAL=${trial}): ${outcomeOf(result)}`;
	checkTrial(file, initial, piLines, result, context);
	// Pi's own loader must see every line too.
	const opened = pi.SessionManager.open(file, dir.path);
	assert.equal(opened.getEntries().length, initial.split('\n').length - 2 + piLines.length + attemptedCount(result), context);
	count(summary, result, piLines.length);
	if (result.kind === 'disturbed') {
		summary.disturbances.push(context);
	}
}

function attemptedCount(result: WriteEntriesResult): number {
	return result.kind === 'written' ? result.entries.length : result.kind === 'disturbed' ? result.attempted : 0;
}

/** Every line is one of the expected lines, each exactly once, each writer's lines in its order. */
function checkTrial(file: string, initial: string, piLines: readonly string[], result: WriteEntriesResult, context: string): void {
	const content = readFileSync(file, 'utf8');
	assert.ok(content.startsWith(initial), `${context}: the original bytes changed`);
	assert.ok(content.endsWith('\n'), `${context}: no final newline`);
	const added = content.slice(initial.length).split(/(?<=\n)/).filter((line) => line !== '');
	const ours = result.kind === 'refused' ? [] : result.entries.slice(0, attemptedCount(result)).map((entry) => entry.line);
	assert.equal(added.length, piLines.length + ours.length, `${context}: expected ${piLines.length} + ${ours.length} lines, found ${added.length}`);
	assert.deepEqual(added.filter((line) => piLines.includes(line)), piLines, `${context}: simulated-Pi lines lost, damaged or reordered`);
	assert.deepEqual(added.filter((line) => ours.includes(line)), ours, `${context}: our lines lost, damaged or reordered`);
	for (const line of added) {
		JSON.parse(line);
	}
	assert.deepEqual(runSteps(parseSessionSteps(content)).diagnostics, [], context);
	if (result.kind === 'written') {
		const first = added.indexOf(ours[0] as string);
		assert.deepEqual(added.slice(first, first + ours.length), ours, `${context}: our lines are not consecutive`);
		const before = first === 0 ? initial.trimEnd().split('\n').at(-1) : added[first - 1];
		assert.equal(result.entries[0]?.entry.parentId, (JSON.parse(before as string) as { id: string }).id, `${context}: parent is not the line before ours`);
	}
}

function count(summary: WriterTrialsSummary, result: WriteEntriesResult, piLines: number): void {
	summary.piLines += piLines;
	summary.ourLines += attemptedCount(result);
	if (result.kind === 'written') {
		if (result.attempts === 1) {
			summary.wrote++;
		} else {
			summary.waitedThenWrote++;
		}
	} else if (result.kind === 'refused') {
		summary.refused[result.refusal.code] = (summary.refused[result.refusal.code] ?? 0) + 1;
	}
}

function outcomeOf(result: WriteEntriesResult): string {
	return result.kind === 'refused' ? `refused (${result.refusal.code})` : result.kind === 'disturbed' ? `disturbed: ${result.message}` : `written after ${result.attempts} attempt(s)`;
}

/** The one-line account of a run: outcomes and line counts. */
export function describeWriterTrials(summary: WriterTrialsSummary): string {
	return `wrote ${summary.wrote}, waited then wrote ${summary.waitedThenWrote}, refused ${JSON.stringify(summary.refused)}, disturbed ${summary.disturbances.length}; `
		+ `${summary.piLines} simulated-Pi lines and ${summary.ourLines} of ours`;
}
