/**
 * The files the benchmark measures: a large synthetic session (generated once into `.bench/`,
 * git-ignored) and the largest real session in test/fixtures/real-sessions.
 */
import { createWriteStream, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { once } from 'node:events';
import { realSessionFiles, repoRoot } from '../support/paths';
import { syntheticSessionLines } from './syntheticSession';

/** Bump when the generator changes, so a stale cached file is regenerated. */
const generatorVersion = 2;

export async function syntheticSessionFile(megabytes: number): Promise<string> {
	const dir = join(repoRoot, '.bench');
	mkdirSync(dir, { recursive: true });
	const file = join(dir, `synthetic-${megabytes}mb-v${generatorVersion}.jsonl`);
	const marker = `${file}.ok`;
	if (existsSync(file) && existsSync(marker)) {
		return file;
	}
	const out = createWriteStream(file);
	for (const line of syntheticSessionLines({ targetBytes: megabytes * 1024 * 1024, seed: 7 })) {
		if (!out.write(`${line}\n`)) {
			await once(out, 'drain');
		}
	}
	out.end();
	await once(out, 'finish');
	writeFileSync(marker, '');
	return file;
}

export function largestRealSession(): string {
	return realSessionFiles().map((file) => ({ file, size: statSync(file).size })).sort((a, b) => b.size - a.size)[0]?.file ?? '';
}

export function readText(file: string): string {
	return readFileSync(file, 'utf8');
}
