/**
 * Every step the extension takes on the realistic 100 MB sessions, each as measured by stepProbe
 * in a child process of its own (so nothing else inflates its memory): time, the longest block of
 * the thread that runs it (the extension host's, today), peak RSS and retained memory as ratios to
 * the file, times as ratios to the floor (read + JSON.parse of every line). Then the whole
 * `pi-condense status` process, as a user runs it. Prints; asserts nothing.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { repoRoot } from '../support/paths';
import { PEAK_RSS_PREFIX } from './peakRssLine';
import { realisticSessions, type RealisticSession } from './realisticSessions';
import type { StepFigures } from './stepProbe';
import { mb, ms, ratio } from './timing';

/** `only: 'costs'`: the session's open and its costs steps alone (`PI_CONDENSE_BENCH_ONLY=costs`). */
export function benchSteps(megabytes: number, only?: 'costs'): void {
	for (const session of realisticSessions(megabytes)) {
		const size = statSync(session.file).size;
		console.log(`\n## Steps on the realistic session: ${basename(session.file)} (${mb(size)}, ${session.label})`);
		const [floor] = probe('floor', session);
		if (!floor) {
			throw new Error('the floor probe printed nothing');
		}
		console.log(`floor (read + JSON.parse, best of 3)   ${ms(floor.ms)}; peak RSS ${ratio(floor.peakRss / size)} the file; ${floor.note ?? ''}`);
		console.log(`${'step'.padEnd(18)}${'time'.padStart(10)}${'/floor'.padStart(8)}${'sum/floor'.padStart(11)}${'longest block'.padStart(15)}${'longest GC'.padStart(12)}${'peak RSS/file'.padStart(15)}${'retained/file'.padStart(15)}   (targets: block ≤ 50 ms, peak ≤ 3×, retained ≤ 2×, open ≤ 1.5×, open + state + render ≤ 1.8×)`);
		let sum = 0;
		for (const step of probe(only ?? 'steps', session)) {
			sum += step.ms;
			console.log(`${step.step.padEnd(18)}${ms(step.ms).padStart(10)}${ratio(step.ms / floor.ms).padStart(8)}${ratio(sum / floor.ms).padStart(11)}${ms(step.longestBlockMs).padStart(15)}${ms(step.longestGcMs).padStart(12)}${ratio(step.peakRss / size).padStart(15)}${ratio(step.retained / size).padStart(15)}   ${step.note ?? ''}`);
		}
		if (only === undefined) {
			cliStatus(session.file, size);
		}
	}
}

function probe(mode: 'floor' | 'steps' | 'costs', session: RealisticSession): StepFigures[] {
	const output = execFileSync(process.execPath, ['--expose-gc', '--max-old-space-size=8192', join(__dirname, 'stepProbe.js'), mode, session.file, session.source], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
	return output.trim().split('\n').map((line) => JSON.parse(line) as StepFigures);
}

/** `pi-condense status --release 2.9.1` with pruning enabled, in a process of its own, as a user runs it. */
function cliStatus(file: string, size: number): void {
	const dir = join(repoRoot, '.bench', 'cli-agent');
	mkdirSync(dir, { recursive: true });
	const config = join(dir, 'enabled.json');
	writeFileSync(config, '{"enabled":true}\n');
	const start = performance.now();
	const run = spawnSync(process.execPath, ['-r', join(__dirname, 'peakRssOnExit.js'), join(repoRoot, 'dist', 'cli.js'), 'status', file, '--release', '2.9.1', '--agent-dir', dir, '--config', config], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
	const elapsed = performance.now() - start;
	const peakLine = run.stderr.split('\n').find((line) => line.startsWith(PEAK_RSS_PREFIX));
	if (run.status !== 0 || peakLine === undefined) {
		throw new Error(`pi-condense status failed (${String(run.status)}): ${run.stderr}`);
	}
	const peak = Number(peakLine.slice(PEAK_RSS_PREFIX.length));
	console.log(`pi-condense status (whole process)     ${ms(elapsed)}; peak RSS ${mb(peak)}, ${ratio(peak / size)} the file (target ≤ 3×); says: ${run.stdout.split('\n')[0] ?? ''}`);
}
