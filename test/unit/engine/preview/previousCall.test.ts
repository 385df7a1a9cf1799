import assert from 'node:assert/strict';
import { lastCompletedReply, previousCallSteps } from '../../../../src/engine/preview/previousCall';
import { messageEntryIdsSteps } from '../../../../src/engine/preview/messageEntries';
import { assistant, call, record, result, BranchBuilder, text, user } from '../condense/builders';
import { runSteps } from '../../../../src/engine/steps';

const at = (iso: string): number => Date.parse(iso);

describe('the previous call reconstructed from the branch', () => {
	// The builder stamps entries 2026-01-01T00:00:01Z, :02, … ; message timestamps are chosen to match.
	function session() {
		return new BranchBuilder()
			.message(user(at('2026-01-01T00:00:00.900Z')))                                        // e1 @ :01
			.message(assistant(at('2026-01-01T00:00:01.500Z'), call('c1', 'bash')))               // e2 @ :02
			.message(result('c1', 'bash', at('2026-01-01T00:00:02.500Z'), 'raw output'))          // e3 @ :03
			// A flush at message_end of the reply below: written before the reply's line, after its request.
			.index(record('c1', 'bash', 'raw output'))                                           // e4 @ :04
			.summary('- bash: ok', [['t1', 'c1']])                                              // e5 @ :05
			.message(assistant(at('2026-01-01T00:00:03.200Z'), text('done')));                   // e6 @ :06
	}

	it('takes the last completed reply and leaves out entries written after it was requested', () => {
		const s = session();
		const messages = s.context;
		const previous = runSteps(previousCallSteps(s.branch, messages, runSteps(messageEntryIdsSteps(s.branch, messages))));
		assert.ok(previous);
		assert.equal(previous.replyIndex, 4);
		assert.deepEqual(previous.branch.map((e) => e.id), ['e1', 'e2', 'e3']);
		assert.deepEqual(previous.rawMessages, messages.slice(0, 3), 'the summary message was not part of the request');
	});

	it('keeps entries written before the request', () => {
		const s = new BranchBuilder()
			.message(user(at('2026-01-01T00:00:00.900Z')))
			.index(record('c0', 'bash', 'x'))                                                     // e2 @ :02
			.message(assistant(at('2026-01-01T00:00:05.000Z'), text('ok')));                      // e3 @ :03
		const previous = runSteps(previousCallSteps(s.branch, s.context, runSteps(messageEntryIdsSteps(s.branch, s.context))));
		assert.deepEqual(previous?.branch.map((e) => e.id), ['e1', 'e2']);
	});

	it('skips failed and aborted replies, and finds none in a session without replies', () => {
		const failed = { ...assistant(9, text('boom')), stopReason: 'error' as const };
		assert.equal(lastCompletedReply([user(1), assistant(2, text('a')), failed]), 1);
		assert.equal(lastCompletedReply([user(1)]), -1);
		const s = new BranchBuilder().message(user(1));
		assert.equal(runSteps(previousCallSteps(s.branch, s.context, runSteps(messageEntryIdsSteps(s.branch, s.context)))), undefined);
	});
});
