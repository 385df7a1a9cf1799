/**
 * Child process of the step benchmark: runs every step the extension takes on one session, in the
 * order the views need them (open, state, render, preview rows, what-if, raw view, search, flush and
 * compact planning, a setting changed with the preview open), keeping each step's result alive as
 * the extension does, and prints one JSON line per step: its time, the longest block of this thread
 * while it ran, the process's peak RSS so far and the heap (plus external memory) retained after a
 * full GC. `floor` mode instead reads the file and JSON-parses every line, the cost any reader pays.
 *
 * Every step first runs once on a small warm-up session, unreported, so that times are not those of
 * cold code; the floor is the best of three runs and the open the best of two (the machine may be
 * shared), every other step runs once. Run with --expose-gc, one at a time (the peak RSS is the
 * whole process's).
 */
import { copyFileSync, readFileSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance, PerformanceObserver } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CondenseState, RenderedContext } from '../../src/engine/condense';
import { previewFromStateSteps } from '../../src/engine/condense/renderBranch';
import { buildCondenseStateSteps } from '../../src/engine/condense/state/buildCondenseState';
import { computePreviewSteps } from '../../src/engine/preview/computePreview';
import { snapshotBaseSteps } from '../../src/engine/preview/snapshotBase';
import { resolveConfig } from '../../src/engine/config/resolve';
import { runFlush } from '../../src/engine/flush';
import type { SnapshotBase, WhatIfResult } from '../../src/engine/preview';
import { searchMessagesSteps } from '../../src/engine/preview/searchMessages';
import { runSteps, type Steps } from '../../src/engine/steps';
import { getBranchSteps } from '../../src/engine/session/branch';
import { buildSessionContextSteps } from '../../src/engine/session/context';
import { pageSnapshotSteps, SnapshotRows } from '../../src/host/preview/snapshotRows';
import type { AgentMessage, SessionEntry } from '../../src/engine/session/types';
import { sha1Hex } from '../../src/node/flush/sha1Hasher';
import type { ToWebview, ViewName } from '../../src/shared/protocol';
import { readCompleteBytes, readSessionModel } from '../../src/node/store/readSessionModel';
import { appendedModelSteps } from '../../src/node/sessions/appendedLines';
import { LATEST, WRITER_RELEASE } from '../support/releases';
import { richReply } from '../support/richSession';
import { scriptedSummarizer } from '../support/scriptedSummarizer';
import { noPiRunning } from '../support/tempSession';
import { writeEntriesToSession } from '../../src/node/write';
import type { EntryDraft } from '../../src/engine/write';
import { openPreview } from './settingsChange';
import { CostsLedger, NO_PRICES, sessionCostsSteps, type SessionCosts, type SessionOverview } from '../../src/engine/costs';
import type { SessionContext, SessionModel } from '../../src/engine/session';
import { AnnotationIndex, lineAnnotationsSteps } from '../../src/engine/views';
import type { ReleaseRules } from '../../src/engine/release';
import type { ContextPruneConfig } from '../../src/engine/config';
import { testWork } from '../support/testWork';

export interface StepFigures {
	readonly step: string;
	readonly ms: number;
	readonly longestBlockMs: number;
	/** The longest garbage-collector pause in the same run (no slice can cut one). */
	readonly longestGcMs: number;
	readonly peakRss: number;
	readonly retained: number;
	readonly note?: string;
}

const held = (): number => {
	globalThis.gc?.();
	const usage = process.memoryUsage();
	return usage.heapUsed + usage.external;
};

/** False during the warm-up run. */
let reporting = false;

/**
 * Times `work`, watching this thread's event loop: the longest delay of a 1 ms timer is the longest
 * block. With `runs` > 1 the work is repeated (after a full GC each time) and the least disturbed
 * run's figures are kept (the machine may be shared); the last run's result is returned.
 */
async function measure(step: string, baseline: number, work: () => unknown, note?: (result: unknown) => string, runs = 1): Promise<unknown> {
	// Held in an object so the previous run's result can be let go before the next run starts.
	const kept: { result: unknown } = { result: undefined };
	let ms = Number.POSITIVE_INFINITY;
	let longestBlockMs = Number.POSITIVE_INFINITY;
	let longestGcMs = 0;
	for (let run = 0; run < runs; run++) {
		kept.result = undefined;
		globalThis.gc?.();
		const histogram = monitorEventLoopDelay({ resolution: 1 });
		let runGcMs = 0;
		const collections = new PerformanceObserver((list) => {
			runGcMs = Math.max(runGcMs, ...list.getEntries().map((entry) => entry.duration));
			if (process.env['PI_CONDENSE_BENCH_GC_LOG']) {
				for (const entry of list.getEntries().filter((e) => e.duration > 20)) {
					process.stderr.write(`gc ${step} ${entry.duration.toFixed(1)} ms kind ${String((entry as { detail?: { kind?: number } }).detail?.kind)}\n`);
				}
			}
		});
		collections.observe({ entryTypes: ['gc'] });
		histogram.enable();
		await sleep(5);
		const start = performance.now();
		kept.result = await work();
		ms = Math.min(ms, performance.now() - start);
		await sleep(5);
		histogram.disable();
		collections.disconnect();
		if (histogram.max / 1e6 < longestBlockMs) {
			longestBlockMs = histogram.max / 1e6;
			longestGcMs = runGcMs;
		}
	}
	const figures: StepFigures = {
		step,
		ms,
		longestBlockMs,
		longestGcMs,
		peakRss: process.resourceUsage().maxRSS * 1024,
		retained: held() - baseline,
		...(note ? { note: note(kept.result) } : {}),
	};
	if (reporting) {
		process.stdout.write(`${JSON.stringify(figures)}\n`);
	}
	return kept.result;
}

/** The snapshot message the preview host posts for `view`, from the view's top. */
function snapshotMessage(rows: SnapshotRows, view: ViewName, cause: 'open' | 'whatIf' | 'view'): Extract<ToWebview, { type: 'snapshot' }> {
	return { type: 'snapshot', snapshot: runSteps(pageSnapshotSteps(rows, view, 0, undefined)), cause };
}

async function floor(file: string, baseline: number): Promise<void> {
	await measure('floor', baseline, () => parseEveryLine(file), (count) => `${String(count)} lines`, 3);
}

function parseEveryLine(file: string): number {
	let count = 0;
	for (const line of readFileSync(file, 'utf8').split('\n')) {
		if (line) {
			JSON.parse(line);
			count++;
		}
	}
	return count;
}

async function steps(file: string, baseline: number): Promise<void> {
	const rules = LATEST;
	const config = resolveConfig({ enabled: true }, rules).config;
	const opened = await measure('open', baseline, async () => {
		// As the extension opens a session: read in pieces, then its branch and context in slices.
		const { model } = await readSessionModel(testWork, file);
		const context = await testWork.sliced(buildSessionContextSteps(model));
		return { model, branch: await testWork.sliced(getBranchSteps(model)), context, messages: context.messages };
	}, (value) => `${String((value as { model: { entries: unknown[] } }).model.entries.length)} entries`, 2) as {
		model: Awaited<ReturnType<typeof readSessionModel>>['model'];
		branch: readonly SessionEntry[];
		context: SessionContext;
		messages: readonly AgentMessage[];
	};
	const { model, branch, context, messages } = opened;
	// Every step as the extension runs it: in slices (`WorkScope.sliced`), so the longest block is a slice's.
	const state = await measure('state', baseline, () => testWork.sliced(buildCondenseStateSteps(branch, rules, { lineOf: (entry) => model.lineOf(entry) })),
		(value) => {
			const s = value as CondenseState;
			return `${String(s.summaries.length)} summaries, ${String(s.chains.length)} chains, ${String(s.records.size)} records`;
		}) as CondenseState;
	const rendered = await measure('render', baseline, () => testWork.sliced(previewFromStateSteps(state, messages, config, rules)),
		(value) => (value as RenderedContext).statusText);
	// The preview keeps its base and only its latest computation: the what-if replaces the first one.
	let shown: WhatIfResult | undefined;
	const base = await measure('preview rows', baseline, async () => {
		const value = await testWork.sliced(snapshotBaseSteps({ sessionPath: file, title: 'bench', branch, messages, config, rules, state }));
		shown = await testWork.sliced(computePreviewSteps(value, { overrides: {}, pricing: undefined, now: Date.now() }));
		JSON.stringify(snapshotMessage(new SnapshotRows(1, shown), 'after', 'open'));
		return value;
	}, () => `${String(shown?.rows.count('before'))} raw rows, ${String(shown?.rows.count('after'))} sent`) as SnapshotBase;
	shown = undefined;
	// As the host does on a what-if: the computation (in slices), its rows as the page asks for
	// them, and the snapshot message posted with the first window of the sent view.
	let rows: SnapshotRows | undefined;
	shown = await measure('what-if', baseline, async () => {
		const computation = await testWork.sliced(computePreviewSteps(base, { overrides: { 'chainCompression.rollingWindow': 0 }, pricing: undefined, now: Date.now() }));
		rows = new SnapshotRows(1, computation);
		JSON.stringify(snapshotMessage(rows, 'after', 'whatIf'));
		return computation;
	}, (value) => `rolling window 0: ${String((value as WhatIfResult).rows.count('after'))} sent`) as WhatIfResult;
	const current = shown;
	const switched = rows;
	if (!switched) {
		throw new Error('the what-if made no rows');
	}
	// What the host does on a switch to the raw view: the snapshot message with its first window of
	// rows, serialized as it is posted (the page asks for the other rows as it scrolls, a bounded window at a time).
	const raw = await measure('raw view', baseline, () => {
		const message = snapshotMessage(switched, 'before', 'view');
		return { bytes: Buffer.byteLength(JSON.stringify(message)), rows: message.snapshot.window.rows.length, of: message.snapshot.rowCounts.before };
	}, (value) => {
		const posted = value as { bytes: number; rows: number; of: number };
		return `${(posted.bytes / 1024 / 1024).toFixed(2)} MB posted (${String(posted.rows)} of ${String(posted.of)} rows)`;
	});
	const search = await measure('search', baseline, () => testWork.sliced(searchMessagesSteps(current.views.before, 'no such text anywhere')));
	// The editor's annotations of the open session file: the index once per snapshot, then a screen of lines at a time.
	const annotated = await measure('annotations', baseline, async () => {
		const index = await testWork.sliced(AnnotationIndex.build(model, context, rendered as RenderedContext));
		const screens = [1, Math.floor(model.lineCount / 2), Math.max(1, model.lineCount - 60)];
		const lines: number[] = [];
		for (const from of screens) {
			lines.push((await testWork.sliced(lineAnnotationsSteps(index, from, from + 60))).length);
		}
		return { index, lines };
	}, (value) => `the index, then three screens of 60 lines (top, middle, end): ${(value as { lines: number[] }).lines.join(', ')} annotated`);
	const flushPorts = { summarizer: scriptedSummarizer(richReply, 0, false), hash: sha1Hex, now: () => 0, runSteps: <T>(steps: Steps<T>) => testWork.sliced(steps) };
	const flushConfig = resolveConfig({ enabled: true }, WRITER_RELEASE).config;
	// The plan's drafts wait to be written; once written, nothing holds them (as in the extension).
	const toWrite: { drafts: readonly EntryDraft[] } = { drafts: [] };
	const flushed = await measure('flush planning', baseline, async () => {
		const result = await runFlush({ mode: 'now', branch, messages, config: flushConfig, rules: WRITER_RELEASE }, flushPorts);
		toWrite.drafts = result.drafts;
		return result.message;
	}, (message) => (message as string).split('\n')[0] ?? '');
	const count = toWrite.drafts.length;
	// The flush's entries written back, as the extension writes them (in slices), into a copy of the session.
	const copy = join(tmpdir(), `pi-condense-bench-write-${process.pid}.jsonl`);
	copyFileSync(file, copy);
	const quiet = new Date(Date.now() - 60_000);
	utimesSync(copy, quiet, quiet);
	try {
		// As the extension writes (the flush asks for no model after the write), then its session
		// store catches up with the appended lines. It keeps the written entries' ids (to watch them)
		// and the session as it now is, not the lines written.
		await measure('flush write', baseline, async () => {
			const drafts = toWrite.drafts;
			toWrite.drafts = [];
			const before = statSync(copy).size;
			const result = await writeEntriesToSession(testWork, copy, drafts, { base: { model, consumedBytes: before }, checkPiHolders: noPiRunning, modelAfterWrite: false });
			const appended = await readCompleteBytes(copy, before, statSync(copy).size);
			const session = appended && await testWork.sliced(appendedModelSteps(model, appended));
			return { kind: result.kind, ids: result.kind === 'refused' ? [] : result.entries.map((entry) => entry.entry.id), session };
		}, (kept) => `${(kept as { kind: string }).kind}: ${String(count)} entries, read back by the store; the file grew to ${(statSync(copy).size / 1024 / 1024).toFixed(1)} MB (ratios are to the file before)`);
	} finally {
		rmSync(copy, { force: true });
	}
	const compacted = await measure('compact planning', baseline,
		() => runFlush({ mode: 'compact', branch, messages, config: flushConfig, rules: WRITER_RELEASE }, flushPorts),
		(result) => (result as Awaited<ReturnType<typeof runFlush>>).message.split('\n')[0] ?? '');
	const costs = await costsSteps(model, rules, config, baseline);
	// The preview open on the session (its views prepared, the page holding its first snapshot), then a
	// setting changed: the views and the preview start over on the host's thread.
	const preview = await openPreview(file, model, config, rules);
	const changed = await measure('settings change', baseline,
		() => preview.change(resolveConfig({ enabled: true, chainCompression: { rollingWindow: 1 } }, rules).config),
		(value) => `chainCompression.rollingWindow 3→1, the preview open: the views and the preview recomputed, ${((value as { posted: number }).posted / 1024 / 1024).toFixed(2)} MB posted`);
	preview.dispose();
	// Everything stays reachable until here, as in the extension, which holds what its views show.
	if ([rendered, raw, search, annotated, flushed, compacted, costs, changed].includes(undefined)) {
		throw new Error('a step returned nothing');
	}
}

/**
 * The Costs panel's data, as the extension gets it: the store's open session keeps its costs ledger (one
 * pass over the entries when it opens, the appended entries after), so the panel's first paint is the
 * overview handed out from it; then every prune's account, in slices.
 */
async function costsSteps(model: SessionModel, rules: ReleaseRules, config: ContextPruneConfig, baseline: number): Promise<unknown> {
	const ledger = await measure('costs ledger', baseline, () => testWork.sliced(CostsLedger.empty().extendSteps(model.entries)),
		(value) => `the pass the store adds to an open: ${String((value as CostsLedger).entriesRead)} entries`) as CostsLedger;
	const overview = await measure('costs overview', baseline, () => ledger.overview(NO_PRICES),
		(value) => { const { timeline, summary } = value as SessionOverview; return `first paint, from the open session: ${String(timeline.requests.length)} requests, ${String(timeline.markers.length)} markers, ${String(summary.rebuilds.count)} rebuilds`; });
	const costs = await measure('costs', baseline, () => testWork.sliced(sessionCostsSteps({ model, rules, config, prices: NO_PRICES, ledger })),
		(value) => { const c = value as SessionCosts; return `${String(c.accounts.length)} prunes accounted, ${String(c.measures.epochs.length)} epochs, ${String(c.measures.renders)} renders`; });
	return overview !== undefined && costs;
}

/** Only the session's open and its costs: `PI_CONDENSE_BENCH_ONLY=costs`. */
async function costsOnly(file: string, baseline: number): Promise<void> {
	const rules = LATEST;
	const config = resolveConfig({ enabled: true }, rules).config;
	const { model } = await measure('open', baseline, () => readSessionModel(testWork, file), (value) => `${String((value as { model: SessionModel }).model.entries.length)} entries (read only)`) as { model: SessionModel };
	await costsSteps(model, rules, config, baseline);
}

async function run(mode: string, file: string, baseline: number): Promise<void> {
	switch (mode) {
		case 'floor':
			return floor(file, baseline);
		case 'costs':
			return costsOnly(file, baseline);
		default:
			return steps(file, baseline);
	}
}

async function main(mode: string, file: string, warmUpFile: string): Promise<void> {
	await run(mode, warmUpFile, held());
	reporting = true;
	await run(mode, file, held());
}

const [mode, file, warmUpFile] = process.argv.slice(2);
main(mode ?? '', file ?? '', warmUpFile ?? '').catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
