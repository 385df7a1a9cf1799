/**
 * The preview host posts rows on demand: on the benchmark's 10,000-message synthetic session (full
 * tool outputs, up to 200 KB each), no message it posts while the page opens, switches views,
 * scrolls through every row, restores its position, reveals and searches exceeds the byte bound;
 * every range request is clamped and bounded, answered with the rows of the computation the page
 * names (a superseded one gets nothing), and each window carries the refs its rows name. Real
 * session file, real engine, the host's own protocol logic.
 */
import assert from 'node:assert/strict';
import { UNBOUNDED } from '../../../../src/base/boundedText';
import { messageBlocks } from '../../../../src/engine/preview';
import { WhatIfComputer } from '../../../../src/host/preview/whatIfComputer';
import { PageHost } from '../../../../src/host/preview/pageHost';
import { MESSAGE_BYTES, WINDOW_BYTES, WINDOW_ROWS } from '../../../../src/host/preview/snapshotRows';
import type { FromWebview, PageSnapshot, RowWindow, ToWebview } from '../../../../src/shared/protocol';
import { prunedSyntheticAgentDir } from '../../../support/prunedSyntheticSession';
import { R200 } from '../../../support/releases';
import { SessionFileSource } from '../../../support/sessionFileSource';
import { runSteps } from '../../../../src/engine/steps';
import { testWork } from '../../../support/testWork';

const MESSAGES = 10_000;

describe('PageHost: rows on demand, every message bounded', function () {
	this.timeout(300_000);
	let fixture: ReturnType<typeof prunedSyntheticAgentDir>;
	let source: SessionFileSource;
	const posted: ToWebview[] = [];
	let host: PageHost;
	/** The same preview computed apart: the rows the page should get. */
	let reference: WhatIfComputer;
	let requestId = 0;

	before(async () => {
		fixture = prunedSyntheticAgentDir({ contextMessages: MESSAGES });
		source = new SessionFileSource(fixture.sessionFile, fixture.agentDir, R200);
		await source.reload();
		reference = new WhatIfComputer(testWork, source);
		await reference.compute({});
		host = new PageHost({
			work: testWork.child('page'),
			source,
			post: (message) => {
				posted.push(message);
				return Promise.resolve(true);
			},
			openBlock: () => Promise.resolve(),
			notify: (message) => assert.fail(message),
			setTitle: () => undefined,
			onReport: () => undefined,
			log: (message) => assert.fail(message),
		});
	});

	after(() => fixture.cleanup());

	/** Hands the page's message to the host; returns what the host posted in answer. */
	const send = async (message: FromWebview): Promise<ToWebview[]> => {
		const from = posted.length;
		await host.handle(message);
		return posted.slice(from);
	};
	const lastSnapshot = (): PageSnapshot => {
		const found = posted.flatMap((message) => message.type === 'snapshot' ? [message.snapshot] : []).at(-1);
		assert.ok(found, 'a snapshot was posted');
		return found;
	};
	const rowsOf = (answer: readonly ToWebview[]): RowWindow => {
		const message = answer.find((m) => m.type === 'rows');
		assert.ok(message?.type === 'rows', `answered with rows: ${answer.map((m) => m.type).join(', ')}`);
		return message.window;
	};
	const fullRows = (view: 'after' | 'before') => reference.current?.rows.all(view) ?? [];

	it('opens with a bounded first window of the sent view, and the row count of each view', async () => {
		await send({ type: 'ready', state: undefined });
		const snapshot = lastSnapshot();
		assert.equal(snapshot.view, 'after');
		assert.equal(snapshot.rowCounts.before, MESSAGES);
		assert.equal(snapshot.rowCounts.after, fullRows('after').length);
		assert.equal(snapshot.window.start, 0);
		assert.ok(snapshot.window.rows.length > 0 && snapshot.window.rows.length <= WINDOW_ROWS, `${snapshot.window.rows.length} rows`);
		assert.deepEqual(snapshot.window.rows, fullRows('after').slice(0, snapshot.window.rows.length));
	});

	it('answers range requests through the whole raw view with exactly its rows, in bounded windows', async () => {
		await send({ type: 'showView', view: 'before' });
		const { snapshotId, window } = lastSnapshot();
		const all = fullRows('before');
		let next = window.rows.length;
		let answers = 0;
		while (next < all.length) {
			const got = rowsOf(await send({ type: 'rows', requestId: ++requestId, snapshotId, view: 'before', start: next, end: next + 2000 }));
			assert.equal(got.start, next);
			assert.ok(got.rows.length > 0 && got.rows.length <= WINDOW_ROWS);
			assert.deepEqual(got.rows, all.slice(next, next + got.rows.length));
			next += got.rows.length;
			answers++;
		}
		assert.ok(answers >= (MESSAGES - window.rows.length) / WINDOW_ROWS, `${answers} answers`);
	});

	it('clamps ranges past the view, reversed or huge', async () => {
		const { snapshotId } = lastSnapshot();
		const past = rowsOf(await send({ type: 'rows', requestId: ++requestId, snapshotId, view: 'before', start: 1e12, end: 2e12 }));
		assert.deepEqual([past.start, past.rows.length], [MESSAGES, 0]);
		const reversed = rowsOf(await send({ type: 'rows', requestId: ++requestId, snapshotId, view: 'before', start: 9000, end: 10 }));
		assert.deepEqual([reversed.start, reversed.rows.length], [9000, 0]);
		const huge = rowsOf(await send({ type: 'rows', requestId: ++requestId, snapshotId, view: 'before', start: 0, end: Number.MAX_SAFE_INTEGER }));
		assert.ok(huge.rows.length > 0 && huge.rows.length <= WINDOW_ROWS);
		assert.deepEqual(await send({ type: 'rows', requestId: ++requestId, snapshotId, view: 'before', start: -5, end: 10 }), [], 'a negative index is not the protocol: ignored');
	});

	it('sends with each window the refs its rows name', async () => {
		const { snapshotId } = lastSnapshot();
		const got = rowsOf(await send({ type: 'rows', requestId: ++requestId, snapshotId, view: 'after', start: 0, end: 300 }));
		const refs = new Set(got.refs.map((info) => info.ref));
		// A compressed chain's row names its block and, in its tools attribute, the refs of its calls.
		const chains = got.rows.filter((row) => row.kind === 'chain');
		assert.ok(chains.length > 10, `${chains.length} chains`);
		const named = chains.flatMap((row) => [row.key.slice(1), ...(/tools="([^"]*)"/.exec(row.blocks.map((b) => 'text' in b ? b.text.text : '').join('\n'))?.[1] ?? '').split(',')]);
		assert.ok(named.length > chains.length * 2);
		assert.deepEqual(named.filter((ref) => !refs.has(ref)), []);
		assert.ok(got.refs.length < (reference.current?.snapshot.refs.length ?? 0), 'not every ref of the session');
		const stubbed = fullRows('after').findIndex((row) => row.stub);
		const around = rowsOf(await send({ type: 'rows', requestId: ++requestId, snapshotId, view: 'after', start: stubbed, end: stubbed + 50 }));
		const stub = around.rows[0]?.stub;
		assert.ok(stub && around.refs.some((info) => info.ref === stub.ref), 'and the ref a stub stands for');
	});

	it('builds a window in steps, one row each, giving the window built at once', () => {
		const rows = reference.rows;
		assert.ok(rows);
		for (const [steps, atOnce] of [
			[rows.aroundSteps('before', 4000), runSteps(rows.aroundSteps('before', 4000))],
			[rows.rangeSteps('after', 100, 700), runSteps(rows.rangeSteps('after', 100, 700))],
		] as const) {
			let yields = 0;
			let next = steps.next();
			for (; !next.done; next = steps.next()) {
				yields++;
			}
			assert.ok(atOnce.rows.length > 100, `${atOnce.rows.length} rows`);
			assert.ok(yields >= atOnce.rows.length, `${yields} yields for ${atOnce.rows.length} rows: the host can pause between any two rows`);
			assert.deepEqual(next.value, atOnce);
		}
	});

	it('ignores a request for a superseded snapshot', async () => {
		const old = lastSnapshot().snapshotId;
		await send({ type: 'setWhatIf', overrides: { 'thinkingStrip.keepLastTurns': 4 } });
		assert.notEqual(lastSnapshot().snapshotId, old);
		assert.deepEqual(await send({ type: 'rows', requestId: ++requestId, snapshotId: old, view: 'before', start: 0, end: 100 }), []);
		await send({ type: 'setWhatIf', overrides: {} });
	});

	it('places a new snapshot\'s window around the row the page says is at its top', async () => {
		await send({ type: 'viewport', view: 'before', key: 'm7321' });
		await source.reload();
		await host.refresh('session');
		const { window } = lastSnapshot();
		assert.ok(window.rows.some((row) => row.key === 'm7321'), `window ${window.start}–${window.start + window.rows.length}`);
		assert.ok(window.start < 7321 && window.start > 7321 - WINDOW_ROWS);
	});

	it('restores a reloaded page around its saved anchor, found by key', async () => {
		await send({ type: 'ready', state: { sessionPath: source.path, view: 'before', overrides: {}, anchor: { key: 'm9950', offset: 12 }, query: '', expanded: [] } });
		const snapshot = lastSnapshot();
		assert.equal(snapshot.view, 'before');
		assert.ok(snapshot.window.rows.some((row) => row.key === 'm9950'));
		assert.equal(snapshot.window.start + snapshot.window.rows.length, MESSAGES, 'to the end of the view');
	});

	it('reveals a row with the rows around it, and expands a row by its key alone', async () => {
		const target = fullRows('after').at(-20)?.toolCallIds[0];
		assert.ok(target);
		const [reveal] = (await (async () => {
			const from = posted.length;
			await host.reveal(target);
			return posted.slice(from);
		})()).filter((m) => m.type === 'reveal');
		assert.ok(reveal?.type === 'reveal');
		assert.equal(reveal.view, 'after');
		assert.ok(reveal.window.start <= reveal.index && reveal.index < reveal.window.start + reveal.window.rows.length);
		const key = fullRows('after')[reveal.index]?.key ?? '';
		const [detail] = await send({ type: 'expandRow', requestId: ++requestId, view: 'after', key });
		assert.ok(detail?.type === 'rowDetail' && detail.key === key && detail.blocks.length > 0);
		assert.deepEqual(await send({ type: 'expandRow', requestId: ++requestId, view: 'after', key: 'no-such-row' }), []);
	});

	it('cuts an expanded row\'s texts to what fits one message, saying how long each is', () => {
		const rows = reference.rows;
		const computation = reference.current;
		assert.ok(rows && computation);
		const index = computation.views.before.findIndex((message) => message.role === 'toolResult' && JSON.stringify(message).length > 100_000);
		const message = computation.views.before[index];
		assert.ok(message, 'a raw tool output over 100 KB');
		const budget = 40_000;
		const detail = runSteps(rows.detailSteps((max) => messageBlocks(message, max), budget));
		assert.ok(Buffer.byteLength(JSON.stringify(detail)) <= budget, 'within the bound');
		const full = messageBlocks(message, UNBOUNDED);
		assert.equal(detail.blocks.length, full.length);
		detail.blocks.forEach((block, i) => {
			const whole = full[i];
			assert.ok(block.kind !== 'image' && whole !== undefined && whole.kind === block.kind);
			assert.equal(block.text.total, whole.text.total, 'the full length is kept');
		});
		assert.ok(detail.blocks.some((block) => block.kind !== 'image' && block.text.text.length < block.text.total), 'a text was cut');
		const small = runSteps(rows.detailSteps((max) => messageBlocks(computation.views.before[0] as typeof message, max), budget));
		assert.deepEqual(small.blocks, messageBlocks(computation.views.before[0] as typeof message, UNBOUNDED), 'a row that fits is sent whole');
	});

	it('answers a search with row indexes, whatever rows the page holds', async () => {
		const late = fullRows('before').filter((row) => row.kind === 'user').at(-1);
		const block = late?.blocks[0];
		assert.ok(late && block && block.kind === 'text');
		const query = block.text.text.slice(0, 60);
		const [results] = await send({ type: 'search', requestId: ++requestId, view: 'before', query });
		assert.ok(results?.type === 'searchResults');
		assert.ok(results.hits.some((hit) => hit.row === Number(late.key.slice(1))), `a match in row ${late.key}: ${JSON.stringify(results.hits)}`);
	});

	// Last: everything the host posted above, in every step.
	it('posted no message over the bound', () => {
		const sizes = posted.map((message) => ({ type: message.type, bytes: Buffer.byteLength(JSON.stringify(message)) }));
		assert.ok(sizes.length > 10, `${sizes.length} messages`);
		assert.deepEqual(sizes.filter(({ bytes }) => bytes > MESSAGE_BYTES), [], `messages over ${MESSAGE_BYTES} bytes`);
		const windows = sizes.filter(({ type }) => type === 'snapshot' || type === 'rows' || type === 'reveal');
		assert.ok(windows.length > 10);
		assert.deepEqual(windows.filter(({ bytes }) => bytes > WINDOW_BYTES), [], `windows over ${WINDOW_BYTES} bytes`);
	});
});
