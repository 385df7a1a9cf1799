/**
 * Load on the session watcher: a sessions folder with many files (real session prefixes, spread
 * over project folders), one file growing at a steady rate like a busy Pi (real entries re-chained
 * under fresh ids, some lines landing in two writes), and a few others written now and then. Every
 * event is applied to an incremental model per file, as the extension does; at the end each model
 * must equal a cold read of its file, and every appended byte must have been reported exactly once.
 */
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { appendToSession, parseSessionSteps, type SessionModel } from '../../src/engine/session';
import { watchSessionFiles, type SessionFileEvent } from '../../src/node/sessions/sessionWatcher';
import { Random } from './random';
import { realSessionsDir } from './paths';
import { observableContext } from './sessionModelCheck';
import { runSteps } from '../../src/engine/steps';
import { testScope } from './testWork';

export interface WatcherLoadOptions {
	readonly files: number;
	/** With `linesPerSecond`, how many lines are written, one tick's worth every 50 ms (later when timers run late). */
	readonly durationMs: number;
	readonly linesPerSecond: number;
	/** Other files that get a line now and then. */
	readonly otherWriters: number;
	readonly seed: number;
	readonly log?: (line: string) => void;
}

export interface WatcherLoadResult {
	readonly events: number;
	readonly appendedEvents: number;
	readonly linesWritten: number;
	readonly bytesWritten: number;
	readonly bytesReported: number;
	readonly mismatches: readonly string[];
	readonly rssBeforeMb: number;
	/** Once the watcher tracks every file, before anything is written. */
	readonly rssReadyMb: number;
	/** Highest RSS sampled while writing. */
	readonly rssPeakMb: number;
	readonly rssAfterMb: number;
	readonly heapBeforeMb: number;
	readonly heapAfterMb: number;
	readonly growingFileMb: number;
}

interface Tracked {
	model: SessionModel | undefined;
	expectedOffset: number;
	reported: number;
}

const SOURCE = 'large-session.migrated-v3.jsonl';
const TICK_MS = 50;

export async function runWatcherLoad(options: WatcherLoadOptions): Promise<WatcherLoadResult> {
	const random = new Random(options.seed);
	const root = realpathSync(mkdtempSync(join(tmpdir(), 'pi-condense-watch-load-')));
	const sourceLines = readFileSync(join(realSessionsDir, SOURCE), 'utf8').split('\n').filter((line) => line !== '');
	const header = sourceLines[0] as string;
	const body = sourceLines.slice(1).map((line) => JSON.parse(line) as Record<string, unknown>);
	const paths = createFiles(root, options.files, header, sourceLines, random);
	const growing = paths[0] as string;
	const others = paths.slice(1, 1 + options.otherWriters);
	const tracked = new Map<string, Tracked>();
	const mismatches: string[] = [];
	let events = 0;
	let appendedEvents = 0;
	const onEvent = (event: SessionFileEvent): void => {
		events++;
		if (event.kind !== 'appended') {
			mismatches.push(`unexpected ${event.kind} event for ${event.path}`);
			return;
		}
		appendedEvents++;
		const entry = tracked.get(event.path);
		if (entry === undefined) {
			mismatches.push(`${event.path}: appended event for a file nobody wrote to`);
			return;
		}
		if (event.offset !== entry.expectedOffset) {
			mismatches.push(`${event.path}: appended at ${event.offset}, expected ${entry.expectedOffset} (lost or repeated bytes)`);
		}
		entry.expectedOffset = event.offset + event.bytes.length;
		entry.reported += event.bytes.length;
		entry.model = entry.model && appendToSession(entry.model, event.bytes.toString('utf8'));
	};
	gc();
	const rssBefore = process.memoryUsage();
	const errors: Error[] = [];
	const work = testScope('watcher');
	const watcher = watchSessionFiles({ work, roots: [{ path: root, layout: 'per-project' }], onEvent, onError: (error) => errors.push(error) });
	await watcher.ready;
	gc();
	const rssReady = process.memoryUsage().rss;
	let rssPeak = rssReady;
	for (const path of [growing, ...others]) {
		const consumed = watcher.consumedOffset(path) ?? -1;
		tracked.set(path, { model: runSteps(parseSessionSteps(readFileSync(path).subarray(0, consumed).toString('utf8'))), expectedOffset: consumed, reported: 0 });
	}
	const startOffsets = new Map([...tracked].map(([path, entry]) => [path, entry.expectedOffset]));
	const writer = new GrowingWriter(growing, body, random);
	// A number of ticks, not a time: a loaded machine's late timers write as much, only slower.
	let due = 0;
	for (let tick = 0; tick < options.durationMs / TICK_MS; tick++) {
		await new Promise((resolve) => setTimeout(resolve, TICK_MS));
		rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
		due += (options.linesPerSecond * TICK_MS) / 1000;
		while (due >= 1) {
			writer.appendOne();
			due--;
		}
		if (others.length > 0 && random.chance(0.2)) {
			const path = random.pick(others);
			appendFileSync(path, `${JSON.stringify({ type: 'custom', customType: 'load', id: `o${Date.now().toString(16)}${random.int(0, 1e6)}`, parentId: null, timestamp: new Date().toISOString(), data: { n: random.int(0, 100) } })}\n`);
		}
	}
	writer.finishLine();
	await settle(watcher, [...tracked.keys()]);
	await work.close();
	gc();
	const rssAfter = process.memoryUsage();
	let bytesWritten = 0;
	let bytesReported = 0;
	for (const [path, entry] of tracked) {
		const size = statSync(path).size;
		const written = size - (startOffsets.get(path) ?? 0);
		bytesWritten += written;
		bytesReported += entry.reported;
		if (entry.reported !== written || entry.expectedOffset !== size) {
			mismatches.push(`${path}: ${entry.reported} bytes reported, ${written} written`);
		}
		mismatches.push(...compareWithColdRead(path, entry.model));
	}
	if (appendedEvents === 0) {
		mismatches.push('no appended events at all');
	}
	mismatches.push(...errors.map((error) => `watcher error: ${error.message}`));
	const growingFileMb = statSync(growing).size / 1e6;
	rmSync(root, { recursive: true, force: true });
	return {
		events, appendedEvents, linesWritten: writer.lines, bytesWritten, bytesReported, mismatches,
		rssBeforeMb: rssBefore.rss / 1e6, rssReadyMb: rssReady / 1e6, rssPeakMb: rssPeak / 1e6, rssAfterMb: rssAfter.rss / 1e6, heapBeforeMb: rssBefore.heapUsed / 1e6, heapAfterMb: rssAfter.heapUsed / 1e6,
		growingFileMb,
	};
}

/** Session files in 40 project folders: real session prefixes (header and up to 40 entries); the first is the header only. */
function createFiles(root: string, count: number, header: string, sourceLines: readonly string[], random: Random): string[] {
	const paths: string[] = [];
	for (let i = 0; i < count; i++) {
		const folder = join(root, `--work-project-${i % 40}--`);
		mkdirSync(folder, { recursive: true });
		const path = join(folder, `2026-01-01T00-00-${String(i).padStart(4, '0')}_session.jsonl`);
		const length = i === 0 ? 0 : random.int(0, 40);
		writeFileSync(path, `${[header, ...sourceLines.slice(1, 1 + length)].join('\n')}\n`);
		paths.push(path);
	}
	return paths;
}

/** Appends real entries, re-chained under fresh ids, like Pi; about one line in ten lands in two writes. */
class GrowingWriter {
	lines = 0;
	private leafId: string | null = null;
	private next = 0;
	private pending = '';

	constructor(private readonly path: string, private readonly body: readonly Record<string, unknown>[], private readonly random: Random) {}

	appendOne(): void {
		const source = this.body[this.next++ % this.body.length] as Record<string, unknown>;
		const id = (this.lines + 1).toString(16).padStart(8, '0');
		const line = `${JSON.stringify({ ...source, id, parentId: this.leafId, timestamp: new Date().toISOString() })}\n`;
		this.leafId = id;
		this.lines++;
		const text = this.pending + line;
		this.pending = '';
		if (this.random.chance(0.1)) {
			const cut = this.random.int(1, text.length - 1);
			appendFileSync(this.path, text.slice(0, cut));
			this.pending = text.slice(cut);
		} else {
			appendFileSync(this.path, text);
		}
	}

	finishLine(): void {
		if (this.pending !== '') {
			appendFileSync(this.path, this.pending);
			this.pending = '';
		}
	}
}

async function settle(watcher: { consumedOffset(path: string): number | undefined }, paths: readonly string[]): Promise<void> {
	const deadline = Date.now() + 30_000;
	while (Date.now() < deadline) {
		// A file's consumed offset moves with the event that reports the bytes: all is delivered once they match.
		if (paths.every((path) => watcher.consumedOffset(path) === statSync(path).size)) {
			return;
		}
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
}

function compareWithColdRead(path: string, model: SessionModel | undefined): string[] {
	const cold = runSteps(parseSessionSteps(readFileSync(path, 'utf8')));
	if (model === undefined) {
		return [`${path}: the incremental model was dropped`];
	}
	const fields = ['header', 'entries', 'diagnostics', 'leafId', 'name', 'lineCount', 'pendingTail'] as const;
	const differing: string[] = fields.filter((field) => !isDeepStrictEqual(model[field], cold[field]));
	if (!isDeepStrictEqual(observableContext(model), observableContext(cold))) {
		differing.push('context');
	}
	return differing.length === 0 ? [] : [`${path}: incremental model differs from a cold read in ${differing.join(', ')}`];
}

function gc(): void {
	(globalThis as { gc?: () => void }).gc?.();
}
