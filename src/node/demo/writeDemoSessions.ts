/**
 * Writes the demo sessions into a Pi agent dir: Pi's own entry lines for the conversation, and
 * pi-condense's entries produced by our real flush (`flushSession`, with the demo's scripted
 * summarizer, so no paid model is ever called) after the prompts where pi-condense would flush.
 * The result is a set of sessions valid by construction: summaries with refs, a dedup alias,
 * a failed edit with purged arguments, compressed chains and pending batches.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { csvExportSession, type DemoSessionScript, demoSummarizer, type DemoWriterContext, flakyDateSession, headerLine, openingLines, promptLines } from '../../engine/demo';
import { type ContextPruneConfig, releaseDefaults, resolveConfig, withWholeBlocks } from '../../engine/config';
import type { ReleaseRules } from '../../engine/release';
import { flushSession } from '../flush/flushSession';
import { updatePruneSettings } from '../settings/updatePruneSettings';
import { readSessionModel } from '../store/readSessionModel';
import type { SliceRunner } from '../../work';

/** Settings that make a short demo show every mechanism (small spill threshold, window of one chain). */
const DEMO_PRUNE_SETTINGS = {
	enabled: true,
	minBatchChars: 200,
	spillThreshold: 4000,
	spillPreviewBytes: 400,
	chainCompression: { rollingWindow: 1 },
} as const;

export interface DemoResult {
	readonly sessionFiles: readonly string[];
	readonly notices: readonly string[];
}

/** Writes the demo sessions under `<agentDir>/sessions/` and the demo `contextPrune` settings. */
export async function writeDemoSessions(work: SliceRunner, agentDir: string, rules: ReleaseRules, now = Date.now()): Promise<DemoResult> {
	// Blocks written whole: pi-condense merges shallowly, and would run without their missing keys.
	const demoSettings = withWholeBlocks(DEMO_PRUNE_SETTINGS, releaseDefaults(rules));
	await updatePruneSettings(agentDir, (current) => (Object.keys(current).length > 0 ? current : demoSettings));
	const config = resolveConfig(demoSettings, rules).config;
	const notices: string[] = [];
	const sessionFiles: string[] = [];
	const scripts = [flakyDateSession(), csvExportSession()];
	for (const [index, script] of scripts.entries()) {
		// Sessions end a little before now, the second one first.
		const clock = { at: now - (scripts.length - index) * 45 * 60_000 };
		sessionFiles.push(await writeDemoSession(work, agentDir, script, { config, rules }, clock, notices));
	}
	return { sessionFiles, notices };
}

async function writeDemoSession(
	work: SliceRunner,
	agentDir: string,
	script: DemoSessionScript,
	{ config, rules }: { readonly config: ContextPruneConfig; readonly rules: ReleaseRules },
	clock: { at: number },
	notices: string[],
): Promise<string> {
	const folder = join(agentDir, 'sessions', `--${script.cwd.replace(/^[/\\]/, '').replace(/[/\\:]/g, '-')}--`);
	mkdirSync(folder, { recursive: true });
	const sessionId = randomUUID();
	const startedAt = new Date(clock.at).toISOString();
	const file = join(folder, `${startedAt.replace(/[:.]/g, '-')}_${sessionId}.jsonl`);
	writeFileSync(file, `${headerLine(script, sessionId, clock.at)}\n`);
	const context = await writerContext(work, file, clock);
	let leafId = appendLines(file, openingLines(script, context));
	for (const [index, prompt] of script.prompts.entries()) {
		leafId = appendLines(file, promptLines(prompt, leafId, await writerContext(work, file, clock), index));
		if (prompt.flushAfter) {
			const outcome = await flushSession(work, {
				sessionPath: file, agentDir, mode: 'now', config, rules, summarizer: demoSummarizer,
				writeOptions: { quietMs: 0, clock: () => new Date(clock.at += 40) },
			});
			if (outcome.kind !== 'written' && outcome.kind !== 'nothing') {
				throw new Error(`demo flush failed: ${outcome.message}`);
			}
			notices.push(...outcome.notices);
			leafId = (await readSessionModel(work, file)).model.leafId ?? leafId;
		}
	}
	return file;
}

/** Time and fresh ids for the next lines; ids are checked against everything already in the file. */
async function writerContext(work: SliceRunner, file: string, clock: { at: number }): Promise<DemoWriterContext> {
	const taken = new Set((await readSessionModel(work, file)).model.entries.map((entry) => entry.id));
	return {
		tick: (ms) => (clock.at += ms),
		newId: () => {
			for (;;) {
				const id = randomBytes(4).toString('hex');
				if (!taken.has(id)) {
					taken.add(id);
					return id;
				}
			}
		},
	};
}

function appendLines(file: string, block: { readonly lines: readonly string[]; readonly leafId: string }): string {
	for (const line of block.lines) {
		appendFileSync(file, `${line}\n`);
	}
	return block.leafId;
}
