/**
 * The status text release by release (spec §5.1, §5.2): one session, rendered by `node dist/cli.js
 * status` as pi-condense 2.0.0, 2.6.0, 2.7.0 and 2.9.1 follow it.
 *
 * The session is recovery-2.9.1 (written by real Pi + pi-condense 2.9.1) as it stood when one of
 * its flushes began, plus one chain entry whose start matches no user message. So 2.6.0+ report an
 * `unresolved-range` (` · diag u1`), and 2.7.0+ show metrics whose values the real flush-metrics
 * entry of that flush recorded.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatCompactCount, previewContextSteps } from '../../../src/engine/condense';
import { buildSessionContextSteps, getBranchSteps, parseSessionSteps } from '../../../src/engine/session';
import { piCondenseSessionsDir, repoRoot } from '../../support/paths';

import { useTempDir } from '../../support/tempDirs';
import { referenceConfig } from '../engine/condense/piReference';
import type { ReleaseVersion } from '../../../src/engine/release/releases';
import { runSteps } from '../../../src/engine/steps';
import { releaseRules } from '../../../src/engine/release/releases';

const CLI = join(repoRoot, 'dist', 'cli.js');
const FOLDER = join(piCondenseSessionsDir, 'recovery-2.9.1');
const CONFIG = join(piCondenseSessionsDir, 'recovery-2.0.0', 'contextPrune.json');

interface RealFlush {
	readonly capturedBatches: number;
	readonly metrics: { readonly openCycleThinkingTokens: number; readonly largestChainSharePct: number; readonly frontierGapTokens: number };
}

/** The session up to the start of the last flush that found a frontier gap, and that flush's entry. */
function sessionAtFlushStart(): { readonly lines: string[]; readonly flush: RealFlush } {
	const lines = readFileSync(join(FOLDER, 'session.jsonl'), 'utf8').trimEnd().split('\n');
	const parsed = lines.map((line) => JSON.parse(line) as { type: string; customType?: string; data?: RealFlush });
	const lastIndex = (from: number, test: (entry: typeof parsed[number]) => boolean): number => {
		for (let i = from; i >= 0; i--) {
			if (test(parsed[i] as typeof parsed[number])) {
				return i;
			}
		}
		return -1;
	};
	const at = lastIndex(parsed.length - 1, (e) => e.customType === 'context-prune-flush-metrics' && (e.data as RealFlush).metrics.frontierGapTokens > 0);
	// What that flush wrote sits between the last message before it and its metrics entry.
	const lastMessage = lastIndex(at - 1, (e) => e.type === 'message');
	return { lines: lines.slice(0, lastMessage + 1), flush: parsed[at]?.data as RealFlush };
}

describe('status text by release (2.0.0, 2.6.0, 2.7.0, 2.9.1)', () => {
	const temp = useTempDir('status-releases');

	it('adds diag from 2.6.0 and the context metrics from 2.7.0, byte-exact', () => {
		const { lines, flush } = sessionAtFlushStart();
		const last = JSON.parse(lines.at(-1) as string) as { id: string; timestamp: string };
		const chain = {
			type: 'custom', customType: 'context-prune-chain', id: 'f00dcafe', parentId: last.id, timestamp: last.timestamp,
			data: { blockId: 'b9', startUserTimestamp: 1, droppedToolCallIds: ['gone_0'], finalAssistantTimestamp: 2, toolRefs: [], compressedAt: 3, rangeSummaryText: 'gone' },
		};
		const text = `${[...lines, JSON.stringify(chain)].join('\n')}\n`;
		const session = join(temp(), 'session.jsonl');
		writeFileSync(session, text);
		const status = (release: ReleaseVersion): string[] => {
			const result = spawnSync(process.execPath, [CLI, 'status', session, '--config', CONFIG, '--release', release], { encoding: 'utf8' });
			assert.equal(result.status, 0, result.stderr);
			// Up to the release line (what follows it, chains left for compact, is tested with the flush).
			const lines = result.stdout.trimEnd().split('\n');
			return lines.slice(0, lines.findIndex((line) => /^(Pi \S+ · )?pi-condense /.test(line)));
		};
		// The reclaim part is 2.0.0's text, from each release's own render (checked elsewhere against what each sent).
		const model = runSteps(parseSessionSteps(text));
		const onText = (release: ReleaseVersion): string => runSteps(previewContextSteps(runSteps(getBranchSteps(model)), runSteps(buildSessionContextSteps(model)).messages, referenceConfig('recovery-2.0.0', releaseRules(release)), releaseRules(release))).statusText;

		assert.deepEqual(status('2.0.0'), [onText('2.0.0')]);
		assert.deepEqual(status('2.6.0'), [`${onText('2.6.0')} \u00b7 diag u1`]);

		const { openCycleThinkingTokens: think, largestChainSharePct: chainPct, frontierGapTokens: gap } = flush.metrics;
		const block = [
			'  --- context ---',
			`  thinking:     ${formatCompactCount(think)} tokens (open segment)`,
			`  chain share:  ${chainPct}%`,
			`  frontier gap: ${formatCompactCount(gap)} tokens`,
			// Loading this session, the release finds the batch that flush captured and sets its rearm flag.
			...(flush.capturedBatches > 0 ? ['  rearmed:      yes'] : []),
		];
		const metricsSuffix = ` \u00b7 think ${formatCompactCount(think)} \u00b7 gap ${formatCompactCount(gap)} \u00b7 chain ${chainPct}%`;
		assert.deepEqual(status('2.7.0'), [`${onText('2.7.0')} \u00b7 diag u1${metricsSuffix}`, ...block]);
		assert.deepEqual(status('2.9.1'), [`${onText('2.9.1')} \u00b7 diag u1${metricsSuffix}`, ...block]);
	});
});
