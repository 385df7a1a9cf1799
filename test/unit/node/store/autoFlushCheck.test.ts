import assert from 'node:assert/strict';
import { utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveConfig } from '../../../../src/engine/config/resolve';
import { parseSessionSteps } from '../../../../src/engine/session';
import { autoFlushReason, usesBudgetTriggers } from '../../../../src/node/store/autoFlushCheck';
import { SessionInsight } from '../../../../src/engine/views/sessionInsight';
import { SessionBuilder } from '../../../support/sessionBuilder';
import { useTempDir } from '../../../support/tempDirs';
import { LATEST } from '../../../support/releases';
import { runSteps } from '../../../../src/engine/steps';

function session(finalReply: boolean): SessionBuilder {
	const builder = new SessionBuilder();
	builder.user('go');
	builder.assistant([{ type: 'toolCall', id: 'c1', name: 'bash', arguments: { command: 'ls' } }]);
	builder.toolResult('c1', 'bash', 'x'.repeat(2000));
	if (finalReply) {
		builder.assistant([{ type: 'text', text: 'done' }]);
	}
	return builder;
}

describe('autoFlushReason', () => {
	const temp = useTempDir('auto-flush');
	const NOW = Date.now();

	function check(builder: SessionBuilder, raw: Record<string, unknown>, mtimeAgoMs: number, contextWindow?: number): Promise<string | undefined> {
		const path = join(temp(), 's.jsonl');
		writeFileSync(path, builder.text());
		const mtime = new Date(NOW - mtimeAgoMs);
		utimesSync(path, mtime, mtime);
		const insight = runSteps(new SessionInsight(runSteps(parseSessionSteps(builder.text())), resolveConfig(raw, LATEST).config, LATEST).prepare());
		return autoFlushReason({ path, insight, nowMs: NOW, quietMs: 3000, contextWindow });
	}

	it('flushes after the agent\'s final reply once the file is quiet, in agent-message mode only', async () => {
		assert.equal(await check(session(true), { enabled: true }, 10_000), 'idle');
		assert.equal(await check(session(true), { enabled: true }, 1000), undefined, 'not quiet yet');
		assert.equal(await check(session(false), { enabled: true }, 10_000), undefined, 'the leaf is a tool result: the agent is still working');
		assert.equal(await check(session(true), { enabled: true, pruneOn: 'on-demand' }, 10_000), undefined);
		assert.equal(await check(session(true), { enabled: false }, 10_000), undefined);
	});

	it('lets a budget trigger fire whatever pruneOn says, when the context window is known', async () => {
		const config = { enabled: true, pruneOn: 'on-demand', autoBudgetThreshold: 0.6 };
		assert.equal(usesBudgetTriggers(resolveConfig(config, LATEST).config), true);
		// The builder's assistant usage reports 15 tokens: 60% of a 20-token window is 12.
		assert.equal(await check(session(true), config, 0, 20), 'threshold');
		assert.equal(await check(session(true), config, 0, 1000), undefined);
		assert.equal(await check(session(true), config, 0), undefined, 'without a window the budget is not judged');
	});
});
