/**
 * Real session files prepared for the crash harnesses: their lines, and every prefix length after
 * which our writer may append (a clean version-3 session whose leaf is not inside a tool turn).
 */
import { readFileSync } from 'node:fs';
import { appendToSession, parseSessionSteps, type SessionModel } from '../../../src/engine/session';
import { checkModelWritable } from '../../../src/engine/write';
import { runSteps } from '../../../src/engine/steps';

export interface WritableSource {
	readonly name: string;
	readonly lines: readonly string[];
	/** Line counts (header included) after which the session may be written to, ascending. */
	readonly writableCuts: readonly number[];
}

export function loadWritableSource(path: string, maxLines = Infinity): WritableSource {
	const lines = readFileSync(path, 'utf8').split('\n').filter((line) => line !== '');
	const writableCuts: number[] = [];
	let model: SessionModel = runSteps(parseSessionSteps(`${lines[0] ?? ''}\n`));
	for (let at = 1; at < Math.min(lines.length, maxLines); at++) {
		model = appendToSession(model, `${lines[at] ?? ''}\n`) ?? model;
		if (checkModelWritable(model) === undefined) {
			writableCuts.push(at + 1);
		}
	}
	return { name: path.split('/').slice(-2).join('/'), lines, writableCuts };
}
