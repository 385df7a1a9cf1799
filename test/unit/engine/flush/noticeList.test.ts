/**
 * The flush's notice list: per-batch skip notes kept as numbers read back word for word as
 * `notices.ts` words them, in order among the other notices; and the shortened form the log shows.
 * Then a real flush of many trivial batches: every skip has its notice, in turn order.
 */
import assert from 'node:assert/strict';
import { NoticeList, SkippedBatchNotes } from '../../../../src/engine/flush/noticeList';
import * as say from '../../../../src/engine/flush/notices';
import { flushText } from '../../../support/flushHarness';
import { flushConfig } from '../../../support/flushFixtures';
import { scriptedSummarizer } from '../../../support/scriptedSummarizer';
import { SessionBuilder, text, toolCall } from '../../../support/sessionBuilder';

function mixedNotes(): SkippedBatchNotes {
	const notes = new SkippedBatchNotes(1000);
	notes.trivial(3, 1, 40);
	notes.deduped(4, 2, 5120);
	notes.oversized(5, 3, 900, 800);
	notes.trivial(6, 2, 999);
	return notes;
}

describe('NoticeList', () => {
	it('reads each skip note back as its notice text, in order among the other notices', () => {
		const list = NoticeList.of('first', mixedNotes(), 'partial', NoticeList.of('last'));
		assert.equal(list.length, 7);
		assert.deepEqual([...list], [
			'first',
			say.batchTrivialNotice(3, 1, 40, 1000),
			say.batchDedupedNotice(4, 2, 5120),
			say.batchOversizedNotice(5, 3, 900, 800),
			say.batchTrivialNotice(6, 2, 999, 1000),
			'partial',
			'last',
		]);
		assert.deepEqual([...list], [...list], 'iterating again gives the same texts');
	});

	it('shortens only runs of skip notes longer than asked, and counts the rest by kind', () => {
		const list = NoticeList.of('first', mixedNotes(), 'last');
		assert.deepEqual([...list.shortened(4)], [...list]);
		assert.deepEqual([...list.shortened(2)], [
			'first',
			say.batchTrivialNotice(3, 1, 40, 1000),
			say.batchDedupedNotice(4, 2, 5120),
			'pruner: … and 2 more skipped batches (4 in all: 2 trivial, 1 deduplicated, 1 oversized)',
			'last',
		]);
	});

	it('gives a real flush of many trivial batches one notice per batch, in turn order, before the final one', async () => {
		const b = new SessionBuilder();
		const batches = 120;
		for (let i = 0; i < batches; i++) {
			b.user(`Step ${i}.`);
			b.assistant([toolCall(`c${i}`, 'bash', { command: `echo ${i}` })]);
			b.toolResult(`c${i}`, 'bash', `${i}`);
			b.assistant([text('Done.')]);
		}
		const flushed = await flushText(b.text(), flushConfig(), scriptedSummarizer('unused'));
		const notices = [...flushed.result.notices];
		assert.equal(notices.length, batches + 1);
		notices.slice(0, -1).forEach((notice, i) => {
			assert.equal(notice, say.batchTrivialNotice(i * 2, 1, `${i}`.length, 1000));
		});
		assert.equal(notices.at(-1), flushed.result.message);
		const logged = [...flushed.result.notices.shortened(50)];
		assert.equal(logged.length, 52);
		assert.equal(logged[50], `pruner: … and ${batches - 50} more skipped batches (${batches} in all: ${batches} trivial, 0 deduplicated, 0 oversized)`);
	});
});
