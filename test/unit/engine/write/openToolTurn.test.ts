/**
 * The "open tool-call turn" check: never write between an assistant's tool calls and their results.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseSessionSteps } from '../../../../src/engine/session';
import { findOpenToolTurn } from '../../../../src/engine/write';
import { realSessionsDir } from '../../../support/paths';
import { SessionBuilder, text, toolCall } from '../../../support/sessionBuilder';
import { runSteps } from '../../../../src/engine/steps';
import type { SessionModel } from '../../../../src/engine/session/model';

function session(build: (b: SessionBuilder) => void): SessionModel {
	const builder = new SessionBuilder();
	builder.user('start');
	build(builder);
	return runSteps(parseSessionSteps(builder.text()));
}

describe('write: open tool-call turn', () => {
	it('is open while any call of the latest assistant message has no result', () => {
		let assistantId = '';
		const model = session((b) => {
			assistantId = b.assistant([toolCall('c1', 'bash', {}), toolCall('c2', 'read', {})]);
			b.toolResult('c1', 'bash', 'ok');
		});
		assert.deepEqual(findOpenToolTurn(model), { assistantEntryId: assistantId, missingToolCallIds: ['c2'] });
	});

	it('is open right after the assistant message, also behind non-message entries', () => {
		const model = session((b) => {
			b.assistant([toolCall('c1', 'bash', {})]);
			b.entry({ type: 'custom', customType: 'state', data: {} });
			b.entry({ type: 'label', targetId: 'x', label: 'l' });
		});
		assert.deepEqual(findOpenToolTurn(model)?.missingToolCallIds, ['c1']);
	});

	it('is closed when every call has its result, with or without entries after them', () => {
		const model = session((b) => {
			b.assistant([toolCall('c1', 'bash', {}), toolCall('c2', 'read', {})]);
			b.toolResult('c1', 'bash', 'ok');
			b.toolResult('c2', 'read', 'ok');
			b.entry({ type: 'custom', customType: 'state', data: {} });
		});
		assert.equal(findOpenToolTurn(model), undefined);
	});

	it('is closed by a user message, a bash execution, or an aborted/failed assistant message', () => {
		assert.equal(findOpenToolTurn(session((b) => {
			b.assistant([toolCall('c1', 'bash', {})]);
			b.user('never mind');
		})), undefined);
		assert.equal(findOpenToolTurn(session((b) => {
			b.assistant([toolCall('c1', 'bash', {})]);
			b.message({ role: 'bashExecution', command: 'ls', output: '', exitCode: 0, cancelled: false, truncated: false });
		})), undefined);
		const aborted = new SessionBuilder();
		aborted.user('go');
		aborted.message({ role: 'assistant', content: [toolCall('c1', 'bash', {})], api: 'a', provider: 'p', model: 'm', usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } }, stopReason: 'aborted' });
		assert.equal(findOpenToolTurn(runSteps(parseSessionSteps(aborted.text()))), undefined);
	});

	it('looks only at the latest assistant message', () => {
		assert.deepEqual(findOpenToolTurn(session((b) => {
			b.assistant([toolCall('c1', 'bash', {})]);
			b.assistant([text('partial'), toolCall('c2', 'bash', {})]);
		}))?.missingToolCallIds, ['c2']);
	});

	it('follows the active path, not file order', () => {
		const model = session((b) => {
			const fork = b.leafId;
			b.assistant([toolCall('c1', 'bash', {})]);
			b.branchFrom(fork);
			b.assistant([text('done')]);
		});
		assert.equal(findOpenToolTurn(model), undefined);
	});

	it('finds the real sessions closed', () => {
		for (const name of ['large-session.migrated-v3.jsonl', 'before-compaction.migrated-v3.jsonl']) {
			assert.equal(findOpenToolTurn(runSteps(parseSessionSteps(readFileSync(join(realSessionsDir, name), 'utf8')))), undefined, name);
		}
	});
});
