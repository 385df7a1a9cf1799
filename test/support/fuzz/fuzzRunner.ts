/**
 * Runs the session fuzzer: mutants by seed, each checked in a worker process under a watchdog (a
 * hang or a crash is reported with its seed and the worker replaced), and every `cliEvery`-th mutant
 * also through the built command line as a child process with a timeout.
 *
 * Reproduce one failure: `node out/test/stress/run.js fuzz --seed <seed> --count 1`.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { piCondenseSessionsDir, repoRoot } from '../paths';
import { checkCliRun, type CliRunResult } from './cliRun';
import type { FuzzReply, FuzzRequest } from './fuzzWorker';
import { SessionCorpus } from './sessionCorpus';
import { mutateSession } from './sessionMutator';

export interface FuzzOptions {
	readonly baseSeed: number;
	readonly count: number;
	/** Per-mutant watchdog. */
	readonly timeoutMs: number;
	/** Run the CLI on every n-th mutant (0: never). */
	readonly cliEvery: number;
	readonly workers?: number;
	readonly hugeLineBytes?: number;
	readonly onProgress?: (done: number) => void;
	/** Seeds on which the worker is made to hang or die (the watchdog's own test). */
	readonly simulate?: Readonly<Record<number, 'hang' | 'crash'>>;
	/** The watchdog of a seed made to hang (`simulate`): only it is waited out, so it may be short while the others keep `timeoutMs`. */
	readonly simulatedHangMs?: number;
}

export interface FuzzFailure {
	readonly seed: number;
	readonly kind: 'problem' | 'threw' | 'hang' | 'crash' | 'cli';
	readonly source: string;
	readonly mutations: readonly string[];
	readonly detail: string;
}

export interface FuzzSummary {
	readonly run: number;
	readonly failures: readonly FuzzFailure[];
	readonly cliRuns: number;
	/** Mutants that read with at least one diagnostic. */
	readonly withDiagnostics: number;
	/** What the write path did, by outcome. */
	readonly writes: Readonly<Record<string, number>>;
}

const WORKER = join(repoRoot, 'out', 'test', 'support', 'fuzz', 'fuzzWorker.js');

let loadedCorpus: SessionCorpus | undefined;

/** Where a mutant came from and how it was made, for a report (never throws). */
function describeMutant(seed: number, hugeLineBytes: number | undefined): { source: string; mutations: readonly string[] } {
	try {
		const mutant = mutateSession(corpus(), seed, { hugeLineBytes });
		return { source: mutant.source, mutations: mutant.mutations };
	} catch (error) {
		return { source: '?', mutations: [`(the mutant cannot be rebuilt: ${error instanceof Error ? error.message : String(error)})`] };
	}
}

/** Loaded only to describe a mutant whose worker hung or died. */
function corpus(): SessionCorpus {
	loadedCorpus ??= SessionCorpus.load();
	return loadedCorpus;
}

export async function runFuzz(options: FuzzOptions): Promise<FuzzSummary> {
	const dir = mkdtempSync(join(tmpdir(), 'pi-condense-fuzz-'));
	linkBlobFolders(dir);
	const failures: FuzzFailure[] = [];
	const writes: Record<string, number> = {};
	let run = 0;
	let cliRuns = 0;
	let withDiagnostics = 0;
	let next = 0;
	// A lane that fails stops the others before the run's folder goes away under them.
	let laneError: unknown;
	const lane = async (): Promise<void> => {
		let worker: ChildProcess | undefined;
		try {
			worker = await startWorker();
			while (next < options.count && laneError === undefined) {
				const seed = options.baseSeed + next++;
				const simulate = options.simulate?.[seed];
				const watchdogMs = simulate === 'hang' ? options.simulatedHangMs ?? options.timeoutMs : options.timeoutMs;
				const outcome = await ask(worker, { seed, dir, hugeLineBytes: options.hugeLineBytes, simulate }, watchdogMs);
				run++;
				options.onProgress?.(run);
				if (outcome.kind !== 'reply') {
					failures.push({ seed, kind: outcome.kind, ...describeMutant(seed, options.hugeLineBytes), detail: outcome.detail });
					worker.kill('SIGKILL');
					worker = await startWorker();
					continue;
				}
				const reply = outcome.reply;
				const about = { seed, source: reply.source, mutations: reply.mutations };
				if ('error' in reply) {
					failures.push({ ...about, kind: 'threw', detail: reply.error });
				} else {
					writes[reply.report.write] = (writes[reply.report.write] ?? 0) + 1;
					withDiagnostics += reply.report.diagnostics > 0 ? 1 : 0;
					failures.push(...reply.report.problems.map((detail) => ({ ...about, kind: 'problem' as const, detail })));
				}
				if (options.cliEvery > 0 && seed % options.cliEvery === 0) {
					cliRuns++;
					const cli: CliRunResult = await checkCliRun(reply.file, seed, 'report' in reply ? reply.report.diagnostics : 0, options.timeoutMs);
					failures.push(...cli.problems.map((detail) => ({ ...about, kind: 'cli' as const, detail })));
				}
				rmSync(reply.file, { force: true });
			}
		} catch (error) {
			laneError ??= error;
		} finally {
			worker?.kill('SIGKILL');
		}
	};
	try {
		await Promise.all(Array.from({ length: options.workers ?? 1 }, lane));
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
	if (laneError !== undefined) {
		throw laneError instanceof Error ? laneError : new Error('a fuzz lane failed', { cause: laneError });
	}
	return { run, failures, cliRuns, withDiagnostics, writes };
}

/** pi-condense's spill folders next to the mutants, so recovery reads real blobs. */
function linkBlobFolders(dir: string): void {
	const basic = join(piCondenseSessionsDir, 'basic');
	symlinkSync(join(basic, '01a22b2a-f0d9-7c01-8264-6403bf89dbdf-blobs'), join(dir, '01a22b2a-f0d9-7c01-8264-6403bf89dbdf-blobs'));
}

function startWorker(): Promise<ChildProcess> {
	const worker = fork(WORKER, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
	return new Promise((resolve, reject) => {
		worker.once('message', () => resolve(worker));
		worker.once('error', reject);
		worker.once('exit', (code) => reject(new Error(`fuzz worker exited (${code}) before it was ready`)));
	});
}

type Outcome =
	| { readonly kind: 'reply'; readonly reply: FuzzReply }
	| { readonly kind: 'hang' | 'crash'; readonly detail: string };

function ask(worker: ChildProcess, request: FuzzRequest, timeoutMs: number): Promise<Outcome> {
	return new Promise((resolve) => {
		const done = (outcome: Outcome): void => {
			clearTimeout(timer);
			worker.off('message', onMessage);
			worker.off('exit', onExit);
			resolve(outcome);
		};
		const onMessage = (reply: FuzzReply): void => done({ kind: 'reply', reply });
		const onExit = (code: number | null, signal: string | null): void => done({ kind: 'crash', detail: `worker died (exit ${code}, signal ${signal})` });
		const timer = setTimeout(() => done({ kind: 'hang', detail: `no answer within ${timeoutMs} ms` }), timeoutMs);
		worker.on('message', onMessage);
		worker.on('exit', onExit);
		worker.send(request);
	});
}

export function describeFailure(failure: FuzzFailure): string {
	return `seed ${failure.seed} [${failure.kind}] ${failure.source} ${failure.mutations.join(' ')}: ${failure.detail.split('\n').slice(0, 6).join('\n    ')}`;
}
