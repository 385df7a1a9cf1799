/**
 * A flush is several lines, and a killed process can stop after any of them. For every prefix of
 * a rich flush's entries (spill, aliases, summaries, a burned ref, frontier, stats, chains with a
 * fusion and a deterministic body, backfill), the next flush completes the work: the session ends
 * up rendering exactly what the uninterrupted flush renders, no ref, record, alias or chain is
 * written twice, and one more flush has nothing left to do.
 */
import assert from 'node:assert/strict';
import { buildCondenseState, renderContext } from '../../../../src/engine/condense';
import { resolveConfig } from '../../../../src/engine/config/resolve';
import { buildSessionContext, getBranch, parseSession } from '../../../../src/engine/session';
import { flushText, memorySpillWriter } from '../../../support/flushHarness';
import { flushInvariantViolations } from '../../../support/flushInvariants';
import { richReply, richSession, SPILL_THRESHOLD } from '../../../support/richSession';
import { scriptedSummarizer } from '../../../support/scriptedSummarizer';
import { WRITER_RELEASE } from '../../../support/releases';

const config = resolveConfig({
	enabled: true, spillThreshold: SPILL_THRESHOLD, protectedTools: ['todoread'], chainCompression: { rollingWindow: 1 },
}, WRITER_RELEASE).config;

function render(text: string): unknown {
	const model = parseSession(text);
	return renderContext(buildSessionContext(model).messages, buildCondenseState(getBranch(model), WRITER_RELEASE), config, WRITER_RELEASE);
}

/** The second part's lines, chained after the leaf of `text`. */
function withSecondPart(text: string): string {
	const firstLines = richSession(false).text().split('\n').length - 1;
	const extra = richSession(true).text().trimEnd().split('\n').slice(firstLines);
	const leaf = parseSession(text).leafId;
	const [first, ...rest] = extra.map((line) => JSON.parse(line) as Record<string, unknown>);
	return text + [{ ...first, parentId: leaf }, ...rest].map((entry) => `${JSON.stringify(entry)}\n`).join('');
}

describe('flush: completing an interrupted flush', function () {
	this.timeout(60000);

	it('after a kill between any two lines, the next flush completes the work without repeating any', async () => {
		const summarizer = scriptedSummarizer(richReply);
		const spill = memorySpillWriter();
		const first = await checkEveryKill(richSession(false).text(), [
			'context-prune-index', 'context-prune-summary', 'context-prune-frontier', 'context-prune-stats', 'context-prune-chain',
		]);
		await checkEveryKill(withSecondPart(first), ['context-prune-dedup-alias', 'context-prune-summary', 'context-prune-chain']);

		/** Kills the flush of `start` after each of its lines, resumes, checks; returns the uninterrupted result. */
		async function checkEveryKill(start: string, mustWrite: readonly string[]): Promise<string> {
			const reference = await flushText(start, config, summarizer, { spill });
			assert.equal(reference.result.status, 'completed', reference.result.message);
			const kinds = reference.result.drafts.map((d) => d.customType);
			for (const kind of mustWrite) {
				assert.ok(kinds.includes(kind), `the flush under test writes ${kind}: ${kinds.join(', ')}`);
			}
			assert.deepEqual(flushInvariantViolations(getBranch(parseSession(reference.text))), []);
			const expected = render(reference.text);
			const lines = reference.text.slice(start.length).split('\n').slice(0, -1);
			assert.equal(lines.length, reference.result.drafts.length);
			for (let written = 0; written <= lines.length; written++) {
				const crashed = start + lines.slice(0, written).map((line) => `${line}\n`).join('');
				const resumed = await flushText(crashed, config, summarizer, { spill });
				assert.notEqual(resumed.result.status, 'failed', resumed.result.message);
				const branch = getBranch(parseSession(resumed.text));
				assert.deepEqual(flushInvariantViolations(branch), [], `after ${written} of ${lines.length} lines`);
				assert.deepEqual(render(resumed.text), expected, `render after a kill at line ${written}`);
				const idle = await flushText(resumed.text, config, summarizer, { spill });
				assert.deepEqual(idle.result.drafts, [], `nothing left after a kill at line ${written}: ${idle.result.notices.join(' | ')}`);
			}
			return reference.text;
		}
	});
});
