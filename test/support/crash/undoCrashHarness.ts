/**
 * Crash safety of Undo Last Prune: our lines are written to a copy of a real session, then an undo
 * process (`undoWorker.ts`) is killed with SIGKILL at a random moment (sometimes before it reaches
 * its last check, mostly around the truncation). Afterwards the file must be, byte for byte,
 * either the file with our lines or the original without them (one `ftruncate` is the only change
 * an undo makes), Pi's own SessionManager must read it, and when our lines are still there a
 * second undo must remove them.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseSessionSteps } from '../../../src/engine/session';
import { runSteps } from '../../../src/engine/steps';
import { undoAppend, writeEntriesToSession } from '../../../src/node/write';
import { piCondenseSessionsDir, realSessionsDir, repoRoot } from '../paths';
import { loadPi } from '../pi';
import { Random } from '../random';
import { makeOld, noPiRunning } from '../tempSession';
import { crashPlan } from './crashPlan';
import { runAndKill } from './killWorker';
import { loadWritableSource } from './writableSources';
import { testWork } from '../testWork';

export interface UndoCrashSummary {
	readonly outcomes: { kept: number; removed: number };
	readonly failures: string[];
}

const WORKER = join(repoRoot, 'out', 'test', 'support', 'crash', 'undoWorker.js');
const SOURCES = [
	join(realSessionsDir, 'large-session.migrated-v3.jsonl'),
	join(realSessionsDir, 'pi-0.73.1-all-entry-types.synthetic.jsonl'),
	join(piCondenseSessionsDir, 'basic', 'session.jsonl'),
];

export async function runUndoCrashTrials(options: { readonly baseSeed: number; readonly trials: number; readonly onProgress?: (done: number) => void }): Promise<UndoCrashSummary> {
	const sources = SOURCES.map((path) => loadWritableSource(path));
	const dir = mkdtempSync(join(tmpdir(), 'pi-condense-undo-crash-'));
	const summary: UndoCrashSummary = { outcomes: { kept: 0, removed: 0 }, failures: [] };
	const pi = await loadPi();
	try {
		for (let trial = 0; trial < options.trials; trial++) {
			const seed = options.baseSeed + trial;
			const random = new Random(seed);
			const source = random.pick(sources);
			const original = `${source.lines.slice(0, random.pick(source.writableCuts)).join('\n')}\n`;
			const path = join(dir, `undo-${seed}.jsonl`);
			try {
				writeFileSync(path, original);
				makeOld(path);
				const written = await writeEntriesToSession(testWork, path, crashPlan(seed, { hugeLines: false }).drafts, { quietMs: 0, maxWaitMs: 0, checkPiHolders: noPiRunning });
				if (written.kind !== 'written' || !written.written) {
					throw new Error(`the write was ${written.kind}`);
				}
				const withOurs = readFileSync(path, 'utf8');
				// Early kills land while the process starts or hashes our lines; the others just after its last check.
				const early = random.chance(0.3);
				await runAndKill({
					script: WORKER, args: [path, JSON.stringify(written.written), String(random.int(0, 3))], delayMs: early ? random.next() * 120 : random.next() * 0.5, early,
					what: 'the undo', endedWell: (code, stdout) => code === 0 && stdout.endsWith('D'),
				});
				const after = readFileSync(path, 'utf8');
				if (after === withOurs) {
					summary.outcomes.kept++;
					const again = await undoAppend(path, written.written, { checkPiHolders: noPiRunning });
					if (again.kind !== 'undone' || readFileSync(path, 'utf8') !== original) {
						throw new Error(`after a kill that left our lines, a second undo was ${again.kind === 'refused' ? `refused (${again.reason})` : 'not byte-exact'}`);
					}
				} else if (after === original) {
					summary.outcomes.removed++;
				} else {
					throw new Error(`the killed undo left ${after.length} characters: neither the file with our lines (${withOurs.length}) nor the original (${original.length})`);
				}
				const entries = pi.SessionManager.open(path, dir).getEntries().length;
				if (entries !== runSteps(parseSessionSteps(original)).entries.length) {
					throw new Error(`Pi reads ${entries} entries after the undo, the original has ${runSteps(parseSessionSteps(original)).entries.length}`);
				}
			} catch (error) {
				summary.failures.push(`seed ${seed} (${source.name}): ${error instanceof Error ? error.message : String(error)}`);
			} finally {
				rmSync(path, { force: true });
			}
			options.onProgress?.(trial + 1);
		}
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
	return summary;
}
