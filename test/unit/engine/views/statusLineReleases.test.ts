/**
 * The status bar's text for a real 2.9.1 session as each release shows it: the reclaim text alone
 * up to 2.5.x, ` · diag …` from 2.6.0, and the metrics segment only while the frontier gap is above
 * 0 (this session was left fully flushed: its last flush-metrics entry recorded a gap of 0 and no
 * tool ran after it).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pruneStatusText } from '../../../../src/engine/condense';
import { parseSessionSteps } from '../../../../src/engine/session';
import type { ReleaseVersion } from '../../../../src/engine/release/releases';
import { SessionInsight, type PreparedInsight } from '../../../../src/engine/views/sessionInsight';
import { statusLineText } from '../../../../src/engine/views/statusLine';
import { piCondenseSessionsDir } from '../../../support/paths';

import { referenceConfig } from '../condense/piReference';
import { runSteps } from '../../../../src/engine/steps';
import { releaseRules } from '../../../../src/engine/release/releases';

const SESSION = join(piCondenseSessionsDir, 'recovery-2.9.1', 'session.jsonl');

/** The session with one chain entry whose start matches no user message (2.6.0+ report it). */
function sessionWithUnresolvedChain(): string {
	const lines = readFileSync(SESSION, 'utf8').trimEnd().split('\n');
	const last = JSON.parse(lines.at(-1) as string) as { id: string; timestamp: string };
	const chain = {
		type: 'custom', customType: 'context-prune-chain', id: 'f00dcafe', parentId: last.id, timestamp: last.timestamp,
		data: { blockId: 'b9', startUserTimestamp: 1, droppedToolCallIds: ['gone_0'], finalAssistantTimestamp: 2, toolRefs: [], compressedAt: 3, rangeSummaryText: 'gone' },
	};
	return `${[...lines, JSON.stringify(chain)].join('\n')}\n`;
}

describe('status bar text by release', () => {
	const model = runSteps(parseSessionSteps(sessionWithUnresolvedChain()));
	const insight = (release: ReleaseVersion): PreparedInsight => runSteps(new SessionInsight(model, referenceConfig('recovery-2.0.0', releaseRules(release)), releaseRules(release)).prepare());

	it('is the reclaim text up to 2.5.x, then adds the diag counters; no metrics while the gap is 0', () => {
		const lines = readFileSync(SESSION, 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line) as { customType?: string; data?: { metrics?: { frontierGapTokens: number } } });
		const lastMetrics = lines.filter((e) => e.customType === 'context-prune-flush-metrics').at(-1);
		assert.equal(lastMetrics?.data?.metrics?.frontierGapTokens, 0, 'the real session was left with no frontier gap');

		for (const release of ['2.0.0', '2.5.0'] as const) {
			const view = insight(release);
			assert.equal(statusLineText(view.config, view, false), pruneStatusText(view.config, view.preview.reclaim), release);
		}
		for (const release of ['2.6.0', '2.7.0', '2.9.1'] as const) {
			const view = insight(release);
			assert.equal(statusLineText(view.config, view, false), `${pruneStatusText(view.config, view.preview.reclaim)} \u00b7 diag u1`, release);
		}
		assert.equal(insight('2.6.0').metrics, undefined);
		assert.equal(insight('2.9.1').metrics?.frontierGapTokens, 0);
	});

	it('keeps prune: OFF bare', () => {
		const view = insight('2.9.1');
		assert.equal(statusLineText({ ...view.config, enabled: false }, view, false), 'prune: OFF');
	});
});
