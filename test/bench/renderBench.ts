/**
 * Render benchmark on the large synthetic session with pi-condense entries written by our own
 * flush (summaries, index entries, aliases, spills, compressed chains): the time of the full
 * render (state rebuilt from the branch plus the four phases: stub-replace, error purge, chain
 * prune, thinking strip) and of the no-op render (pruning disabled), each as a ratio to opening
 * the session (parse, tree, context). Rendered as the latest release and as 2.0.0.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { buildCondenseStateSteps, renderBranchSteps, renderContextSteps } from '../../src/engine/condense';
import { resolveConfig } from '../../src/engine/config/resolve';
import { runFlush } from '../../src/engine/flush';
import { buildSessionContextSteps, getBranchSteps, getTree, parseSessionSteps } from '../../src/engine/session';
import { appendDrafts } from '../support/flushHarness';
import { createBlobWriter } from '../../src/node/flush/blobWriter';
import { sha1Hex } from '../../src/node/flush/sha1Hasher';
import { richReply } from '../support/richSession';
import { scriptedSummarizer } from '../support/scriptedSummarizer';
import { performance } from 'node:perf_hooks';
import { bestOf, mb, ms, ratio } from './timing';
import type { ContextPruneConfig } from '../../src/engine/config/types';
import type { ReleaseRules } from '../../src/engine/release/releases';
import { LATEST, R200, WRITER_RELEASE } from '../support/releases';
import { runSteps } from '../../src/engine/steps';

// Our flush writes 2.0.0's shapes, read natively up to 2.5.0 (see test/support/releases.ts).
const flushConfig = resolveConfig({ enabled: true }, WRITER_RELEASE).config;
/** What users get by default (2.9.1: occurrence keys, positional chains, orphan sweep), and 2.0.0 (id chains, thinking strip). */
const RENDER_RELEASES = [LATEST, R200] as const;
const renderConfig = (rules: ReleaseRules): ContextPruneConfig => resolveConfig({ enabled: true, thinkingStrip: { enabled: true, keepLastTurns: 16 } }, rules).config;

/** The synthetic session plus our flush's entries, generated once next to it. */
export async function prunedSyntheticFile(source: string): Promise<string> {
	const target = source.replace(/\.jsonl$/, '-pruned-v1.jsonl');
	if (existsSync(target) && existsSync(`${target}.ok`)) {
		return target;
	}
	const text = readFileSync(source, 'utf8');
	const model = runSteps(parseSessionSteps(text));
	const sessionId = model.header?.id ?? 'synthetic';
	mkdirSync(join(target, '..'), { recursive: true });
	const result = await runFlush(
		{ mode: 'now', branch: runSteps(getBranchSteps(model)), messages: runSteps(buildSessionContextSteps(model)).messages, config: flushConfig, rules: WRITER_RELEASE },
		{ summarizer: scriptedSummarizer(richReply), hash: sha1Hex, spill: createBlobWriter(target, sessionId), now: () => Date.parse('2026-03-02T00:00:00.000Z') },
	);
	writeFileSync(target, appendDrafts(text, result.drafts, Date.parse('2026-03-02T00:00:00.000Z')));
	writeFileSync(`${target}.ok`, `${result.message}\n`);
	return target;
}

export async function benchRender(source: string, runs: number): Promise<void> {
	const file = await prunedSyntheticFile(source);
	const text = readFileSync(file, 'utf8');
	console.log(`\n## Render: ${basename(file)} (${mb(Buffer.byteLength(text))}; ${readFileSync(`${file}.ok`, 'utf8').trim()})`);
	const open = bestOf(runs, () => {
		const model = runSteps(parseSessionSteps(text));
		getTree(model);
		runSteps(buildSessionContextSteps(model));
	});
	const model = runSteps(parseSessionSteps(text));
	const branch = runSteps(getBranchSteps(model));
	const messages = runSteps(buildSessionContextSteps(model)).messages;
	for (const rules of RENDER_RELEASES) {
		const config = renderConfig(rules);
		const state = runSteps(buildCondenseStateSteps(branch, rules));
		let rendered = messages;
		const full = bestOf(runs, () => {
			rendered = runSteps(renderContextSteps(messages, runSteps(buildCondenseStateSteps(branch, rules)), config, rules));
		});
		const phases = bestOf(runs, () => runSteps(renderContextSteps(messages, state, config, rules)));
		const disabled = resolveConfig({ enabled: false }, rules).config;
		const noop = bestOf(runs * 20, () => runSteps(renderBranchSteps(branch, messages, disabled, rules)));
		console.log(`pi-condense ${rules.version}: ${state.records.size} records, ${state.aliases.size} aliases, ${state.summaries.length} summaries, ${state.chains.length} chains, ${state.spilled.length} spilled; ${messages.length} messages -> ${rendered.length}`);
		if (rules === LATEST) {
			console.log(`session open (parse + tree + context)  ${ms(open)}`);
		}
		console.log(`full render (state + four phases)      ${ms(full)}   ${ratio(full / open)} the open   (target ≤ 0.50×)`);
		console.log(`  of which the four phases             ${ms(phases)}   ${ratio(phases / open)} the open`);
		console.log(`no-op render (pruning disabled)        ${ms(noop)}   ${(100 * noop / open).toFixed(4)} % of the open   (target ≤ 1 %)`);
	}
	let idle = 0;
	for (let i = 0; i < runs; i++) {
		const start = performance.now();
		const result = await runFlush(
			{ mode: 'now', branch, messages, config: flushConfig, rules: WRITER_RELEASE },
			{ summarizer: scriptedSummarizer(richReply), hash: sha1Hex, now: () => 0 },
		);
		idle = i === 0 ? performance.now() - start : Math.min(idle, performance.now() - start);
		if (result.drafts.length > 0) {
			throw new Error(`a second flush should have nothing to do: ${result.message}`);
		}
	}
	console.log(`a second flush (nothing pending)       ${ms(idle)}   ${ratio(idle / open)} the open`);
}
