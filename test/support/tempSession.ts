/**
 * Session files in real temporary directories for write-back tests, plus the small fakes those
 * tests inject (a Pi check that finds nothing, a clock well past the file's mtime).
 */
import { appendFileSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PiHolderCheck } from '../../src/node/write';

export class TempDir {
	readonly path = mkdtempSync(join(tmpdir(), 'pi-condense-write-'));

	file(name: string, text: string, ageMs = 60_000): string {
		const path = join(this.path, name);
		writeFileSync(path, text);
		makeOld(path, ageMs);
		return path;
	}

	remove(): void {
		rmSync(this.path, { recursive: true, force: true });
	}
}

/** Sets a file's mtime `ageMs` in the past, so the quiet-period check passes. */
export function makeOld(path: string, ageMs = 60_000): void {
	const at = new Date(Date.now() - ageMs);
	utimesSync(path, at, at);
}

/** Appends one line the way Pi does: one `appendFileSync` of `JSON.stringify(entry) + "\n"`. */
export function appendLikePi(path: string, entry: Record<string, unknown>): string {
	const line = `${JSON.stringify(entry)}\n`;
	appendFileSync(path, line);
	return line;
}

export const noPiRunning: PiHolderCheck = () => Promise.resolve({ checked: true, holders: [] });

export const read = (path: string): string => readFileSync(path, 'utf8');

/** Parses every line of a file (all must be complete JSON). */
export function jsonLines(path: string): Record<string, unknown>[] {
	const text = read(path);
	if (!text.endsWith('\n')) {
		throw new Error(`${path} does not end with a newline`);
	}
	return text.slice(0, -1).split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
}
