/**
 * A real Pi session pruned several times, as a long session is: the lines of a real session written
 * in order, and every `every` lines a flush of our own engine (summaries, index entries, dedup
 * aliases, compressed chains; `compact` every third time) appended as Pi would find it, then the
 * session goes on from the flush's last entry. For the costs engine's prune measures.
 */
import { readFileSync } from 'node:fs';
import { resolveConfig } from '../../src/engine/config/resolve';
import { flushText, memorySpillWriter } from './flushHarness';
import { richReply } from './richSession';
import { scriptedSummarizer } from './scriptedSummarizer';
import { WRITER_RELEASE } from './releases';

type Json = Record<string, unknown>;

export interface FlushedSessionOptions {
	/** A real session file (v3). */
	readonly source: string;
	/** Lines between two flushes. */
	readonly every: number;
	/** Stop after this many source lines (default: all). */
	readonly lines?: number;
	/** The chain compression's rolling window (default 2: chains are compressed early). */
	readonly rollingWindow?: number;
	/** After this many flushes the session goes on from the entry before the last flush's, as `/tree` does (a branch switch). */
	readonly branchAfter?: number;
	/** Outputs at least this long are spilled (default: never). */
	readonly spillThreshold?: number;
}

export async function flushedSessionText(options: FlushedSessionOptions): Promise<string> {
	const [header = '', ...body] = readFileSync(options.source, 'utf8').split('\n').filter((line) => line.trim() !== '');
	const lines = body.slice(0, options.lines ?? body.length);
	const config = resolveConfig({
		enabled: true, minBatchChars: 200, chainCompression: { rollingWindow: options.rollingWindow ?? 2 }, ...(options.spillThreshold === undefined ? {} : { spillThreshold: options.spillThreshold }),
	}, WRITER_RELEASE).config;
	const spill = memorySpillWriter();
	const summarizer = scriptedSummarizer(richReply, 0, false);
	let text = `${header}\n`;
	let leaf: unknown = null;
	let previousSource: unknown = null;
	for (let start = 0, flushes = 0; start < lines.length; start += options.every, flushes++) {
		let lastAt = 0;
		for (const line of lines.slice(start, start + options.every)) {
			const entry = JSON.parse(line) as Json;
			// Continue from the flush's last entry, as Pi does: the next entry hangs under the leaf.
			if (entry['parentId'] === previousSource) {
				entry['parentId'] = leaf;
			}
			previousSource = entry['id'];
			leaf = entry['id'];
			lastAt = Date.parse(String(entry['timestamp']));
			text += `${JSON.stringify(entry)}\n`;
		}
		if (start + options.every < lines.length) {
			const before = leaf;
			const flushed = await flushText(text, config, summarizer, { mode: flushes % 3 === 2 ? 'compact' : 'now', nowMs: lastAt + 1, spill });
			text = flushed.text;
			const last = flushed.text.trimEnd().split('\n').at(-1);
			leaf = last === undefined ? leaf : (JSON.parse(last) as Json)['id'];
			if (flushes === options.branchAfter) {
				leaf = before; // the flush's entries stay on a branch of their own
			}
		}
	}
	return text;
}
