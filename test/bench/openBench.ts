/**
 * Session open benchmark: our full open against the JSON.parse floor and against Pi's own
 * SessionManager, peak memory, and the cost of one incremental append.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { appendToSession, buildSessionContextSteps, getTree, parseSessionSteps } from '../../src/engine/session';
import { loadPi } from '../support/pi';
import { readText } from './benchFiles';
import { bestOf, mb, median, ms, ratio } from './timing';
import { runSteps } from '../../src/engine/steps';

export interface OpenFigures {
	readonly file: string;
	readonly openMs: number;
}

export async function benchSessionOpen(file: string, runs: number): Promise<OpenFigures> {
	const size = statSync(file).size;
	const text = readText(file);
	const lines = text.split('\n');
	console.log(`\n## Session open: ${basename(file)} (${mb(size)}, ${lines.length - 1} lines)`);

	const floor = bestOf(runs, () => {
		for (const line of text.split('\n')) {
			if (line) {
				JSON.parse(line);
			}
		}
	});
	// The same, keeping what was parsed (as any model must): the rest of the gap is garbage collection
	// promoting the parsed objects, which the bare floor never pays.
	const keptFloor = bestOf(runs, () => {
		const kept: unknown[] = [];
		for (const line of text.split('\n')) {
			if (line) {
				kept.push(JSON.parse(line));
			}
		}
		return kept;
	});
	const open = bestOf(runs, () => {
		const model = runSteps(parseSessionSteps(text));
		getTree(model);
		runSteps(buildSessionContextSteps(model));
	});
	const openWithRead = bestOf(runs, () => {
		const model = runSteps(parseSessionSteps(readText(file)));
		getTree(model);
		runSteps(buildSessionContextSteps(model));
	});
	const pi = await loadPi();
	const dir = mkdtempSync(join(tmpdir(), 'pi-bench-'));
	const copy = join(dir, basename(file));
	copyFileSync(file, copy);
	const piOpen = bestOf(runs, () => pi.SessionManager.open(copy, dir).buildSessionContext());
	rmSync(dir, { recursive: true, force: true });

	const memory = JSON.parse(execFileSync(process.execPath, ['--expose-gc', join(__dirname, 'memoryProbe.js'), file], { encoding: 'utf8' })) as { peak: number; retained: number };

	// One appended entry: the model of the file minus its last lines, advanced by one line at a time.
	const tailLines = 20;
	const head = `${lines.slice(0, lines.length - 1 - tailLines).join('\n')}\n`;
	let model = runSteps(parseSessionSteps(head));
	runSteps(buildSessionContextSteps(model));
	const appendTimes: number[] = [];
	for (let i = 0; i < tailLines; i++) {
		const line = `${lines[lines.length - 1 - tailLines + i]}\n`;
		const start = performance.now();
		model = appendToSession(model, line) ?? runSteps(parseSessionSteps(head));
		runSteps(buildSessionContextSteps(model));
		appendTimes.push(performance.now() - start);
	}
	const append = median(appendTimes);

	console.log(`JSON.parse of every line (floor)      ${ms(floor)}`);
	console.log(`the same, keeping the parsed values    ${ms(keptFloor)}   ${ratio(keptFloor / floor)} the floor`);
	console.log(`our open (parse + tree + context)     ${ms(open)}   ${ratio(open / floor)} the floor   (target ≤ 1.50×)`);
	console.log(`our open including the file read      ${ms(openWithRead)}`);
	console.log(`Pi SessionManager.open + context      ${ms(piOpen)}   ours ${ratio(openWithRead / piOpen)} Pi's   (target ≤ 1.00×)`);
	console.log(`peak memory of our open               ${mb(memory.peak)}   ${ratio(memory.peak / size)} the file size   (target ≤ 2.50×; retained ${mb(memory.retained)})`);
	console.log(`one appended entry (parse + context)  ${ms(append)}   ${(100 * append / open).toFixed(3)} % of a cold open   (target ≤ 1 %)`);
	return { file, openMs: open };
}
