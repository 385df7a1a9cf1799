/**
 * A flush is several lines, and a killed process can stop after any of them. For every prefix of
 * a rich flush's entries (spill, aliases, summaries, a burned ref, frontier, stats, chains with a
 * fusion and a deterministic body, backfill), under 2.5.0 (bare keys) and 2.9.1 (occurrence keys,
 * flush metrics), the next flush does what the user's release does on that partial file
 * (`test/support/resumeRule.ts`): every call covered once, nothing lost, refs and stats continued
 * from the file, no chain compressed that an uninterrupted flush keeps raw, the chains left for
 * `compact` counted by the views, and Pi reads every entry. A last `now` then has nothing to do,
 * and `compact` takes the chains left.
 */
import assert from 'node:assert/strict';
import { resolveConfig } from '../../../../src/engine/config/resolve';
import type { FlushMode } from '../../../../src/engine/flush';
import { parseSessionSteps } from '../../../../src/engine/session';
import type { ReleaseRules } from '../../../../src/engine/release/releases';
import { flushText, memorySpillWriter } from '../../../support/flushHarness';
import { readWithPi } from '../../../support/pi';
import { LATEST, WRITER_RELEASE } from '../../../support/releases';
import { coverageOf, resumeVerdict } from '../../../support/resumeRule';
import { richReply, richSession, SPILL_THRESHOLD } from '../../../support/richSession';
import { scriptedSummarizer } from '../../../support/scriptedSummarizer';
import { runSteps } from '../../../../src/engine/steps';

function configFor(rules: ReleaseRules) {
	return resolveConfig({
		enabled: true, spillThreshold: SPILL_THRESHOLD, protectedTools: ['todoread'], chainCompression: { rollingWindow: 1 },
	}, rules).config;
}

describe('flush: resuming after a kill, as the release does', function () {
	this.timeout(120000);

	for (const rules of [WRITER_RELEASE, LATEST]) {
		for (const second of [false, true]) {
			for (const mode of ['now', 'compact'] as const) {
				it(`${rules.version}, ${second ? 'two flushes (aliases, a chain fused across them)' : 'one flush'}, ${mode}: a kill between any two lines`, async () => {
					const left = await checkEveryKill(rules, second, mode);
					if (second && mode === 'now') {
						assert.ok(left > 0, 'some kill leaves chains for compact (a now with nothing pending stops before chain compression)');
					}
				});
			}
		}
	}

	/** Kills the flush after each of its lines, resumes, checks; returns how many kills left chains for `compact`. */
	async function checkEveryKill(rules: ReleaseRules, second: boolean, mode: FlushMode): Promise<number> {
		const config = configFor(rules);
		const summarizer = scriptedSummarizer(richReply);
		const spill = memorySpillWriter();
		const options = { spill, rules, mode };
		// The second session is the first one flushed, then grown by two prompts: its flush dedups
		// against the first flush's records and fuses a chain from summaries of both flushes.
		let start = richSession(false).text();
		if (second) {
			const first = await flushText(start, config, summarizer, { spill, rules });
			start = continued(first.text, richSession(true).text().slice(start.length));
		}
		const reference = await flushText(start, config, summarizer, options);
		assert.equal(reference.result.status, 'completed', reference.result.message);
		const referenceCoverage = coverageOf(runSteps(parseSessionSteps(reference.text)), rules);
		const lines = reference.text.slice(start.length).split('\n').slice(0, -1);
		let leftKills = 0;
		for (let written = 0; written <= lines.length; written++) {
			const partial = start + lines.slice(0, written).map((line) => `${line}\n`).join('');
			const calls = summarizer.requests.length;
			const resumed = await flushText(partial, config, summarizer, options);
			const what = `after a kill at line ${written} of ${lines.length}`;
			assert.notEqual(resumed.result.status, 'failed', `${what}: ${resumed.result.message}`);
			const verdict = resumeVerdict({
				mode, partial, resumed: resumed.text, reference: referenceCoverage, summarizerCalls: summarizer.requests.length - calls, config, rules,
			});
			assert.deepEqual(verdict.violations, [], what);
			await assertPiReads(resumed.text, what);
			const again = await flushText(resumed.text, config, summarizer, options);
			assert.deepEqual(again.result.drafts.map((draft) => draft.customType).filter((kind) => kind !== 'context-prune-flush-metrics'), [], `${what}: a last ${mode} has nothing to do`);
			if (verdict.leftChains > 0) {
				leftKills++;
				const compacted = await flushText(resumed.text, config, summarizer, { ...options, mode: 'compact' });
				const chains = new Set(coverageOf(runSteps(parseSessionSteps(compacted.text)), rules).chains);
				assert.ok(referenceCoverage.chains.every((startTimestamp) => chains.has(startTimestamp)), `${what}: compact takes the chains left`);
			}
		}
		return leftKills;
	}
});

/** `more` (lines of entries) appended to `text`, its first entry chained to the last entry of `text`. */
function continued(text: string, more: string): string {
	const [first = '', ...rest] = more.split('\n');
	const entry = JSON.parse(first) as Record<string, unknown>;
	return `${text}${JSON.stringify({ ...entry, parentId: runSteps(parseSessionSteps(text)).leafId })}\n${rest.join('\n')}`;
}

/** Pi's own SessionManager reads every line, and builds a context of as many messages as ours. */
async function assertPiReads(text: string, what: string): Promise<void> {
	const pi = await readWithPi(text);
	const lines = text.split('\n').slice(1).filter((line) => line !== '');
	assert.deepEqual(pi.entries.map((entry) => JSON.stringify(entry)), lines.map((line) => JSON.stringify(JSON.parse(line))), `${what}: Pi reads every entry`);
}
