/**
 * Crash safety of the flush: `now` or `compact` (`flushSession`, the code the extension and the CLI
 * run) on copies of real sessions, SIGKILLed at a random moment (mostly during its write, some
 * before it writes at all), against the fake LLM server. After each kill: every original byte is
 * still there, Pi's own SessionManager reads every earlier entry, what follows is whole lines of
 * pi-condense entries chained from the old leaf (or a line cut inside write(2), see
 * `crashHarness.ts`), and our reader finds no problem. Then a following flush of the same mode must
 * do what the user's release does on that partial file (`../resumeRule.ts`): no diagnostics, the
 * flush invariants hold (no ref, record, alias or chain twice, no alias of a call to itself or to a
 * call without a record), every call an uninterrupted flush covers is covered once, refs and stats
 * continue from the file, and the chains a `now` leaves for `compact` (a `now` with nothing
 * pending stops before chain compression, as the release does) are those the views count.
 */
import { bundledLoader } from '../piAiForTests';
import { inProcessSummarizers } from '../../../src/node/llm/defaultSummarizer';
import { WRITER_RELEASE } from '../releases';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FlushMode } from '../../../src/engine/flush';
import { parseSessionSteps, type SessionModel } from '../../../src/engine/session';
import { flushSession } from '../../../src/node/flush/flushSession';
import { createFakeAgentDir, type FakeAgentDir } from '../fakeAgentDir';
import { promptOf, startFakeLlmServer, type FakeLlmServer } from '../fakeLlmServer';
import { oracleReply } from '../oracleReplies';
import { piCondenseSessionsDir, realSessionsDir, repoRoot } from '../paths';
import { loadPi } from '../pi';
import { Random } from '../random';
import { coverageOf, resumeVerdict, type Coverage } from '../resumeRule';
import { makeOld, noPiRunning } from '../tempSession';
import { readAppended, runAndKill } from './killWorker';
import { loadWritableSource, type WritableSource } from './writableSources';
import { FLUSH_CRASH_CONFIG, type FlushCrashRequest } from './flushCrashPlan';
import type { CrashOutcome } from './crashHarness';
import { runSteps } from '../../../src/engine/steps';
import { testWork } from '../testWork';

export interface FlushCrashOptions {
	readonly baseSeed: number;
	readonly trials: number;
	readonly onProgress?: (done: number) => void;
}

export interface FlushCrashSummary {
	readonly trials: number;
	readonly outcomes: Readonly<Record<CrashOutcome, number>>;
	/** Lines our killed flushes had written before the kill, in total. */
	readonly linesBeforeKill: number;
	/** Trials whose resumed `now` left chains for `compact`. */
	readonly leftChainsForCompact: number;
	readonly failures: readonly string[];
}

const WORKER = join(repoRoot, 'out', 'test', 'support', 'crash', 'flushCrashWorker.js');
const DIST = join(repoRoot, 'dist');
const SOURCES = [
	join(realSessionsDir, 'large-session.migrated-v3.jsonl'),
	join(realSessionsDir, 'before-compaction.migrated-v3.jsonl'),
	join(piCondenseSessionsDir, 'basic', 'session.jsonl'),
	join(piCondenseSessionsDir, 'large-bulk', 'session.jsonl'),
];
/** Prefixes per source (fixed, so an uninterrupted reference flush is computed once for each). */
const CUTS_PER_SOURCE = 5;
const MAX_CUT_LINES = 400;

interface Reference extends Coverage {
	readonly lines: number;
}

interface Environment {
	readonly server: FakeLlmServer;
	readonly agent: FakeAgentDir;
	readonly references: Map<string, Reference>;
}

export async function runFlushCrashTrials(options: FlushCrashOptions): Promise<FlushCrashSummary> {
	const server = await startFakeLlmServer({ text: (request) => oracleReply(promptOf(request)) || 'Nothing to report.' });
	const agent = await createFakeAgentDir({ serverUrl: server.url });
	const env: Environment = { server, agent, references: new Map() };
	const sources = SOURCES.map((path) => loadWritableSource(path, MAX_CUT_LINES));
	const outcomes: Record<CrashOutcome, number> = { 'before-write': 0, 'between-lines': 0, 'complete': 0, 'cut': 0 };
	const failures: string[] = [];
	let linesBeforeKill = 0;
	let leftChainsForCompact = 0;
	try {
		for (let trial = 0; trial < options.trials; trial++) {
			const seed = options.baseSeed + trial;
			try {
				const { outcome, lines, leftChains } = await runTrial(seed, sources, env);
				outcomes[outcome]++;
				linesBeforeKill += lines;
				leftChainsForCompact += leftChains > 0 ? 1 : 0;
			} catch (error) {
				failures.push(`seed ${seed}: ${error instanceof Error ? error.message : String(error)}`);
			}
			options.onProgress?.(trial + 1);
		}
	} finally {
		await server.close();
		await agent.cleanup();
	}
	return { trials: options.trials, outcomes, linesBeforeKill, leftChainsForCompact, failures };
}

async function runTrial(seed: number, sources: readonly WritableSource[], env: Environment): Promise<{ outcome: CrashOutcome; lines: number; leftChains: number }> {
	const random = new Random(seed);
	const source = random.pick(sources);
	const cut = spreadCuts(source)[random.int(0, CUTS_PER_SOURCE - 1)] ?? source.writableCuts.at(-1) ?? 1;
	const mode: FlushMode = random.chance(0.75) ? 'now' : 'compact';
	const original = `${source.lines.slice(0, cut).join('\n')}\n`;
	const dir = mkdtempSync(join(tmpdir(), 'pi-condense-flush-crash-'));
	const path = join(dir, 'session.jsonl');
	const what = `${source.name} (${cut} lines, ${mode})`;
	try {
		const reference = await referenceFor(env, `${source.name}:${cut}:${mode}`, original, mode);
		writeFileSync(path, original);
		makeOld(path);
		const pauseMs = random.int(0, 1);
		const early = random.chance(0.1);
		const delayMs = early ? random.next() * 1500 : random.next() * (reference.lines * (pauseMs + 0.4) + 2);
		await runAndKill({
			script: WORKER, args: [JSON.stringify({ path, agentDir: env.agent.dir, distDir: DIST, mode, pauseMs } satisfies FlushCrashRequest)], delayMs, early,
			what: 'the flush process', endedWell: (code, stdout) => code === 0 && /D(written|nothing)/.test(stdout),
		});
		const model = runSteps(parseSessionSteps(original));
		const after = await checkAfterKill(path, original, model);
		if (after.cut) {
			await checkCutRefused(path, env, mode);
			return { outcome: 'cut', lines: after.lines, leftChains: 0 };
		}
		const leftChains = await resumeAsTheRelease(path, env, mode, reference);
		return { outcome: after.lines === 0 ? 'before-write' : after.lines === reference.lines ? 'complete' : 'between-lines', lines: after.lines, leftChains };
	} catch (error) {
		throw new Error(`${what}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

/** A few prefixes spread over the writable cuts of a source. */
function spreadCuts(source: WritableSource): number[] {
	const cuts = source.writableCuts;
	return Array.from({ length: CUTS_PER_SOURCE }, (_, i) => cuts[Math.floor(((i + 1) * (cuts.length - 1)) / CUTS_PER_SOURCE)] ?? cuts.length);
}

function flushRequest(path: string, env: Environment, mode: FlushMode): Parameters<typeof flushSession>[1] {
	return {
		sessionPath: path, agentDir: env.agent.dir, mode, config: FLUSH_CRASH_CONFIG, rules: WRITER_RELEASE, summarizers: inProcessSummarizers(bundledLoader(DIST)),
		writeOptions: { quietMs: 0, maxWaitMs: 0, checkPiHolders: noPiRunning },
	};
}

/** What one uninterrupted flush of `original` covers (computed once per prefix and mode). */
async function referenceFor(env: Environment, key: string, original: string, mode: FlushMode): Promise<Reference> {
	const known = env.references.get(key);
	if (known) {
		return known;
	}
	const dir = mkdtempSync(join(tmpdir(), 'pi-condense-flush-ref-'));
	try {
		const path = join(dir, 'session.jsonl');
		writeFileSync(path, original);
		makeOld(path);
		const result = await flushSession(testWork, flushRequest(path, env, mode));
		if (result.kind !== 'written' && result.kind !== 'nothing') {
			throw new Error(`the reference flush was ${result.kind}: ${result.message}`);
		}
		const reference = { ...coverageOf(runSteps(parseSessionSteps(readFileSync(path, 'utf8'))), WRITER_RELEASE), lines: result.entries?.length ?? 0 };
		env.references.set(key, reference);
		return reference;
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

/** Every original byte kept, then whole lines of pi-condense entries chained from the old leaf (or a cut line). */
async function checkAfterKill(path: string, original: string, model: SessionModel): Promise<{ lines: number; cut: boolean }> {
	const { bytes, complete, partial } = readAppended(path, original);
	const ours = complete === '' ? [] : complete.slice(0, -1).split('\n');
	let parentId = model.leafId;
	for (const [i, line] of ours.entries()) {
		const entry = JSON.parse(line) as { type?: unknown; customType?: unknown; id?: unknown; parentId?: unknown };
		if ((entry.type !== 'custom' && entry.type !== 'custom_message') || typeof entry.customType !== 'string' || !entry.customType.startsWith('context-prune-')) {
			throw new Error(`line ${i + 1} after the original is not a pi-condense entry`);
		}
		if (entry.parentId !== parentId) {
			throw new Error(`line ${i + 1} after the original does not chain from the line before it`);
		}
		parentId = entry.id as string;
	}
	await checkPiReads(path, [...original.split('\n').slice(1).filter((line) => line !== ''), ...ours]);
	const reread = runSteps(parseSessionSteps(bytes.toString('utf8')));
	if (reread.diagnostics.length > 0) {
		throw new Error(`after the kill the file reads with problems: line ${reread.diagnostics[0]?.line}: ${reread.diagnostics[0]?.message}`);
	}
	return { lines: ours.length, cut: partial.length > 0 };
}

async function checkPiReads(path: string, lines: readonly string[]): Promise<void> {
	const pi = await loadPi();
	const dir = mkdtempSync(join(tmpdir(), 'pi-condense-flush-crash-pi-'));
	try {
		const copy = join(dir, 'session.jsonl');
		copyFileSync(path, copy);
		const entries = pi.SessionManager.open(copy, dir).getEntries() as readonly unknown[];
		const expected = lines.map((line) => JSON.parse(line) as unknown);
		if (entries.length !== expected.length || !entries.every((entry, i) => JSON.stringify(entry) === JSON.stringify(expected[i]))) {
			throw new Error(`Pi reads ${entries.length} entries, expected ${expected.length} (every earlier entry, then ours)`);
		}
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

/** The following flush does what the release does on the partial file; returns the chains it left for `compact`. */
async function resumeAsTheRelease(path: string, env: Environment, mode: FlushMode, reference: Reference): Promise<number> {
	const partial = readFileSync(path, 'utf8');
	const calls = env.server.requests.length;
	const result = await flushSession(testWork, flushRequest(path, env, mode));
	if (result.kind !== 'written' && result.kind !== 'nothing') {
		throw new Error(`the following ${mode} was ${result.kind}: ${result.message} ${result.advice ?? ''}`);
	}
	const text = readFileSync(path, 'utf8');
	const model = runSteps(parseSessionSteps(text));
	if (model.diagnostics.length > 0) {
		throw new Error(`after the following ${mode}: line ${model.diagnostics[0]?.line}: ${model.diagnostics[0]?.message}`);
	}
	const verdict = resumeVerdict({
		mode, partial, resumed: text, reference, summarizerCalls: env.server.requests.length - calls, config: FLUSH_CRASH_CONFIG, rules: WRITER_RELEASE,
	});
	if (verdict.violations.length > 0) {
		throw new Error(`after the following ${mode}: ${verdict.violations.slice(0, 3).join('; ')}`);
	}
	await checkPiReads(path, text.split('\n').slice(1).filter((line) => line !== ''));
	return verdict.leftChains;
}

/** After a cut line, the following flush is refused with the line and what to do, and changes nothing. */
async function checkCutRefused(path: string, env: Environment, mode: FlushMode): Promise<void> {
	const before = readFileSync(path);
	const result = await flushSession(testWork, flushRequest(path, env, mode));
	if (result.kind !== 'refused' || result.refusal?.code !== 'partial-line' || !/newline/.test(result.advice ?? '')) {
		throw new Error(`after a cut line the following ${mode} was ${result.kind}: ${result.message}`);
	}
	if (!readFileSync(path).equals(before)) {
		throw new Error('the refused flush changed the file');
	}
}
