/**
 * Watches the thread it runs on (in the integration tests: the extension host) while a phase runs:
 * - the event loop's delay (`monitorEventLoopDelay`, sampled every millisecond): its longest is the
 *   longest block as anything waiting on the loop saw it;
 * - how much of each stretch without a loop turn the loop was busy (`eventLoopUtilization`): on a
 *   loaded machine the process may simply not be scheduled for tens of milliseconds while the loop
 *   waits for nothing, which the delay counts as a block though nothing ran;
 * - the process's CPU time over each stretch (all its threads, so at least the loop's): well below
 *   the stretch, the process was waiting for a core (2 cores shared with Chromium and code-server),
 *   not working. The longest stretch counted at most by that time is the longest block of work;
 * - the garbage collector's longest pause (no slice can cut one).
 * With `profileDir`, it also records a CPU profile of the phase and the stretches over 30 ms in the
 * profile's clock (µs), to tell whose code each long block ran (`<name>.cpuprofile`, `<name>.blocks.json`).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance, PerformanceObserver, type EventLoopUtilization, type PerformanceEntry } from 'node:perf_hooks';

export interface ThreadFigures {
	readonly elapsedMs: number;
	/** The longest event-loop delay. */
	readonly longestDelayMs: number;
	readonly p99DelayMs: number;
	/** The longest stretch without a loop turn, counting only the time the loop was busy in it. */
	readonly longestBusyMs: number;
	/** The longest stretch without a loop turn, counted at most by the CPU time the process used in it. */
	readonly longestOnCpuMs: number;
	readonly longestGc: { readonly ms: number; readonly kind: string } | undefined;
}

const PROFILED_STRETCH_NS = 30_000_000n;

export async function watchThread(name: string, phase: () => Promise<void>, profileDir?: string): Promise<ThreadFigures> {
	const histogram = monitorEventLoopDelay({ resolution: 1 });
	let longestGc: PerformanceEntry | undefined;
	const gc = new PerformanceObserver((list) => {
		for (const entry of list.getEntries()) {
			longestGc = entry.duration > (longestGc?.duration ?? 0) ? entry : longestGc;
		}
	});
	gc.observe({ entryTypes: ['gc'] });
	const profiler = profileDir === undefined ? undefined : await startProfile();
	const stretches: [number, number][] = [];
	let longestBusyMs = 0;
	let lastTick = process.hrtime.bigint();
	let lastUse: EventLoopUtilization = performance.eventLoopUtilization();
	let longestOnCpuMs = 0;
	let longestStretchMs = 0;
	let lastCpu = process.cpuUsage();
	const tick = (): void => {
		const now = process.hrtime.bigint();
		const use = performance.eventLoopUtilization();
		const cpu = process.cpuUsage();
		longestBusyMs = Math.max(longestBusyMs, use.active - lastUse.active);
		const cpuMs = (cpu.user - lastCpu.user + cpu.system - lastCpu.system) / 1000;
		longestOnCpuMs = Math.max(longestOnCpuMs, Math.min(Number(now - lastTick) / 1e6, cpuMs));
		longestStretchMs = Math.max(longestStretchMs, Number(now - lastTick) / 1e6);
		if (now - lastTick > PROFILED_STRETCH_NS) {
			stretches.push([Number(lastTick / 1000n), Number(now / 1000n)]);
		}
		lastTick = now;
		lastUse = use;
		lastCpu = cpu;
	};
	const ticker = setInterval(tick, 1);
	histogram.enable();
	const start = performance.now();
	try {
		await phase();
	} finally {
		// The stretch up to the phase's end counts too: a phase that never lets the loop turn has no other.
		tick();
		clearInterval(ticker);
		histogram.disable();
		gc.disconnect();
	}
	const elapsedMs = performance.now() - start;
	if (profiler && profileDir !== undefined) {
		const { profile } = await profiler.post('Profiler.stop');
		mkdirSync(profileDir, { recursive: true });
		writeFileSync(join(profileDir, `${name}.cpuprofile`), JSON.stringify(profile));
		writeFileSync(join(profileDir, `${name}.blocks.json`), JSON.stringify(stretches));
		profiler.disconnect();
	}
	return {
		elapsedMs,
		longestDelayMs: Math.max(histogram.max / 1e6, longestStretchMs),
		p99DelayMs: histogram.percentile(99) / 1e6,
		longestBusyMs,
		longestOnCpuMs,
		longestGc: longestGc && { ms: longestGc.duration, kind: gcKind(longestGc) },
	};
}

async function startProfile(): Promise<Session> {
	const session = new Session();
	session.connect();
	await session.post('Profiler.enable');
	await session.post('Profiler.setSamplingInterval', { interval: 500 });
	await session.post('Profiler.start');
	return session;
}

/** The kind of a collection, from its entry's `detail.kind` (`perf_hooks.constants.NODE_PERFORMANCE_GC_*`). */
function gcKind(entry: PerformanceEntry): string {
	const kind = (entry as PerformanceEntry & { readonly detail?: { readonly kind?: number } }).detail?.kind;
	return ({ 1: 'minor', 2: 'major', 4: 'incremental', 8: 'weak callbacks' } as Record<number, string>)[kind ?? 0] ?? `kind ${String(kind)}`;
}
