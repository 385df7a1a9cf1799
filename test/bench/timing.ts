/**
 * Timing helpers for the benchmark: best of N runs (the least disturbed by a noisy machine).
 */
import { performance } from 'node:perf_hooks';

export function bestOf(runs: number, work: () => unknown): number {
	let best = Number.POSITIVE_INFINITY;
	for (let i = 0; i < runs; i++) {
		globalThis.gc?.();
		const start = performance.now();
		work();
		best = Math.min(best, performance.now() - start);
	}
	return best;
}

export async function bestOfAsync(runs: number, work: () => Promise<unknown>): Promise<number> {
	let best = Number.POSITIVE_INFINITY;
	for (let i = 0; i < runs; i++) {
		globalThis.gc?.();
		const start = performance.now();
		await work();
		best = Math.min(best, performance.now() - start);
	}
	return best;
}

export function median(values: readonly number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

export const ms = (value: number): string => `${value.toFixed(value < 10 ? 2 : 0)} ms`;
export const ratio = (value: number): string => `${value.toFixed(2)}×`;
export const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
