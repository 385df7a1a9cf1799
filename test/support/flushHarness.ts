/**
 * Engine-level flush harness: runs `runFlush` on a session text and appends its drafts with the
 * engine's own envelope writer (`prepareEntries`), exactly as the node writer would, so a test can
 * chain flushes and read the result back with our parser or Pi's.
 */
import type { ContextPruneConfig } from '../../src/engine/config/types';
import { runFlush, type FlushMode, type FlushResult, type SpillWriter } from '../../src/engine/flush';
import type { Summarizer } from '../../src/engine/ports';
import { buildSessionContextSteps, getBranchSteps, parseSessionSteps } from '../../src/engine/session';
import { prepareEntriesSteps, type EntryDraft } from '../../src/engine/write';
import { sha1Hex } from '../../src/node/flush/sha1Hasher';
import { Random } from './random';
import { WRITER_RELEASE } from './releases';
import type { ReleaseRules } from '../../src/engine/release/releases';
import { runSteps } from '../../src/engine/steps';

export interface MemorySpillWriter extends SpillWriter {
	readonly blobs: Map<string, string>;
}

export function memorySpillWriter(directory = '/blobs'): MemorySpillWriter {
	const blobs = new Map<string, string>();
	return {
		blobs,
		writeBlob: (name, body) => {
			blobs.set(name, body);
			return Promise.resolve(`${directory}/${name}`);
		},
	};
}

/** Appends drafts to a session text as Pi-compatible lines chained from its last entry. */
export function appendDrafts(text: string, drafts: readonly EntryDraft[], atMs: number, seed = 1): string {
	const model = runSteps(parseSessionSteps(text));
	const random = new Random(seed + model.entries.length);
	const prepared = runSteps(prepareEntriesSteps(drafts, {
		parentId: model.leafId,
		isTaken: (id) => model.entryById(id) !== undefined,
		randomBytes: (count) => Uint8Array.from({ length: count }, () => random.int(0, 255)),
		now: () => new Date(atMs),
	}));
	return text + prepared.map((entry) => entry.line).join('');
}

export interface FlushTextOptions {
	readonly mode?: FlushMode;
	readonly spill?: SpillWriter;
	readonly nowMs?: number;
	readonly interactive?: boolean;
	readonly signal?: AbortSignal;
	/** Default: the release our writer's entries are read as (`WRITER_RELEASE`). */
	readonly rules?: ReleaseRules;
}

/** Flushes a session text and returns the result with the text it leads to. */
export async function flushText(text: string, config: ContextPruneConfig, summarizer: Summarizer, options: FlushTextOptions = {}): Promise<{ result: FlushResult; text: string }> {
	const model = runSteps(parseSessionSteps(text));
	const nowMs = options.nowMs ?? Date.parse('2026-12-01T00:00:00.000Z');
	const result = await runFlush({
		mode: options.mode ?? 'now',
		branch: runSteps(getBranchSteps(model)),
		messages: runSteps(buildSessionContextSteps(model)).messages,
		config,
		rules: options.rules ?? WRITER_RELEASE,
		interactive: options.interactive,
		signal: options.signal,
	}, { summarizer, hash: sha1Hex, spill: options.spill, now: () => nowMs });
	return { result, text: appendDrafts(text, result.drafts, nowMs) };
}
