/**
 * The reclaim figure, named and in one order on every surface: pi-condense's own measure (its status
 * line's: the conversation without Pi 1.x's system messages) first, then the whole request. On a
 * session written by Pi 1.6.0 the two differ by the system prompt, and each is what its name says.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { previewContextSteps, pruneStatusText } from '../../../../src/engine/condense';
import { conversationOf } from '../../../../src/engine/session/systemMessages';
import { runSteps } from '../../../../src/engine/steps';
import { releaseRules } from '../../../../src/engine/release/releases';
import { CONVERSATION_MEASURE, measureLine, reclaimMeasures, REQUEST_MEASURE } from '../../../../src/engine/views';
import { loadSession, REFERENCE_DIR, referenceConfig } from '../condense/piReference';

const length = (value: unknown): number => JSON.stringify(value).length;

describe('the reclaim figure\'s two measures', () => {
	it('on a Pi 1.6.0 session: pi-condense\'s measure leaves the system prompt out, the whole request has it', () => {
		const rules = releaseRules('2.9.1');
		const loaded = loadSession(join(REFERENCE_DIR, 'batching-pi-1.6.0', 'session.jsonl'));
		const config = referenceConfig('batching-pi-1.6.0', rules);
		const preview = runSteps(previewContextSteps(loaded.branch, loaded.messages, config, rules));
		const reclaim = preview.reclaim;
		assert.ok(reclaim?.request, 'a system prompt: the whole request is another measure');
		assert.equal(reclaim.beforeChars, length(conversationOf(preview.before)));
		assert.equal(reclaim.afterChars, length(conversationOf(preview.after)));
		assert.deepEqual(reclaim.request, { beforeChars: length(preview.before), afterChars: length(preview.after) });
		const [conversation, request] = reclaimMeasures(reclaim);
		assert.equal(conversation.name, CONVERSATION_MEASURE);
		assert.equal(request.name, REQUEST_MEASURE);
		assert.ok(request.beforeTokens > conversation.beforeTokens);
		// The headline is the status line's figure, to the percent.
		assert.ok(pruneStatusText(config, reclaim).endsWith(`(-${conversation.percent}%)`), pruneStatusText(config, reclaim));
		assert.match(measureLine(conversation), /^Conversation \(pi-condense's figure\): [\d.]+k? → [\d.]+k? tokens, (\d+% less|about the same)$/);
	});

	it('without a system prompt the two are one', () => {
		const [conversation, request] = reclaimMeasures({ beforeChars: 400_000, afterChars: 60_000 });
		assert.deepEqual({ ...request, name: conversation.name }, conversation);
		assert.equal(conversation.percent, 85);
	});
});
