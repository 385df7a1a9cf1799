import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NO_PRICES, sessionOverviewSteps } from '../../../../src/engine/costs';
import { parseSessionSteps } from '../../../../src/engine/session';
import { OpenSession } from '../../../../src/node/store/openSession';
import { readSessionModel } from '../../../../src/node/store/readSessionModel';
import { piCondenseSessionsDir, realSessionsDir } from '../../../support/paths';
import { bulkLinesAfter, countingTurns } from '../../../support/bulkAppend';
import { SessionBuilder } from '../../../support/sessionBuilder';
import { observable } from '../../../support/sessionModelCheck';
import { useTempDir } from '../../../support/tempDirs';
import { defaults, LATEST, R200 } from '../../../support/releases';
import { runSteps } from '../../../../src/engine/steps';
import { testWork } from '../../../support/testWork';

describe('readSessionModel', () => {
	const temp = useTempDir('read-model');

	it('reads a file piece by piece into the same model as one parse of the whole text', async () => {
		const path = join(piCondenseSessionsDir, 'large-bulk', 'session.jsonl');
		const text = readFileSync(path, 'utf8');
		const loaded = await readSessionModel(testWork, path, 64 * 1024);
		const whole = runSteps(parseSessionSteps(text));
		assert.equal(loaded.consumed, Buffer.byteLength(text));
		assert.equal(loaded.model.entries.length, whole.entries.length);
		assert.deepEqual(loaded.model.entries.map((entry) => entry.id), whole.entries.map((entry) => entry.id));
		assert.equal(loaded.model.leafId, whole.leafId);
	});

	it('migrates a v1 file as a whole, as Pi does, parsing its lines piece by piece and letting the event loop turn', async () => {
		for (const name of ['large-session.jsonl', 'before-compaction.jsonl']) {
			const path = join(realSessionsDir, name);
			let turns = 0;
			const counting = setInterval(() => turns++, 0);
			const loaded = await readSessionModel(testWork, path, 16 * 1024);
			clearInterval(counting);
			assert.equal(loaded.model.migrated, true, name);
			assert.deepStrictEqual(observable(loaded.model), observable(runSteps(parseSessionSteps(readFileSync(path, 'utf8')))), name);
			assert.ok(turns > 2, `${name}: the event loop turned ${turns} times`);
		}
	});

	it('reads a file without a valid header as Pi does: empty, with the reason', async () => {
		const path = join(temp(), 'no-header.jsonl');
		writeFileSync(path, `{"type":"message","id":"a1"}\n${readFileSync(join(realSessionsDir, 'large-session.migrated-v3.jsonl'), 'utf8')}`);
		const loaded = await readSessionModel(testWork, path, 16 * 1024);
		assert.deepStrictEqual(observable(loaded.model), observable(runSteps(parseSessionSteps(readFileSync(path, 'utf8')))));
		assert.equal(loaded.model.entries.length, 0);
	});

	it('leaves a line still being written for later', async () => {
		const path = join(temp(), 's.jsonl');
		const builder = new SessionBuilder();
		builder.user('hello');
		writeFileSync(path, `${builder.text()}{"type":"message","id":"half`);
		const loaded = await readSessionModel(testWork, path);
		assert.equal(loaded.consumed, Buffer.byteLength(builder.text()));
		assert.equal(loaded.model.entries.length, 1);
	});
});

describe('OpenSession', () => {
	const temp = useTempDir('open-session');

	function setUp(): { path: string; builder: SessionBuilder; written: () => number } {
		const path = join(temp(), 's.jsonl');
		const builder = new SessionBuilder();
		builder.user('first');
		writeFileSync(path, builder.text());
		return { path, builder, written: () => Buffer.byteLength(readFileSync(path)) };
	}

	it('advances its model from appended bytes, skipping bytes it has already read', async () => {
		const { path, builder } = setUp();
		const session = await OpenSession.open(testWork, path);
		const before = builder.text();
		builder.user('second');
		const added = Buffer.from(builder.text().slice(before.length));
		appendFileSync(path, added);
		assert.equal(await session.applyAppend(Buffer.byteLength(before), added), true);
		assert.equal(session.model.entries.length, 2);
		assert.equal(session.consumed, Buffer.byteLength(builder.text()));
		assert.equal(await session.applyAppend(Buffer.byteLength(before), added), false, 'the same bytes again change nothing');
		assert.equal(session.model.entries.length, 2);
	});

	it('fills a gap between what it read and the reported bytes from the file', async () => {
		const { path, builder } = setUp();
		const session = await OpenSession.open(testWork, path);
		const start = builder.text();
		builder.user('second');
		const middle = builder.text();
		builder.user('third');
		appendFileSync(path, builder.text().slice(start.length));
		const last = Buffer.from(builder.text().slice(middle.length));
		assert.equal(await session.applyAppend(Buffer.byteLength(middle), last), true);
		assert.deepEqual(session.model.entries.map((entry) => entry.type === 'message' && entry.message.role), ['user', 'user', 'user']);
	});

	it('reads a large append in pieces, letting the event loop turn, into the model a cold read gives', async () => {
		const { path } = setUp();
		const session = await OpenSession.open(testWork, path);
		const before = readFileSync(path);
		// A pruned session's lines, re-parented onto ours: megabytes in one append, as a first flush writes.
		const added = bulkLinesAfter(session.model.leafId);
		assert.ok(added.length > 1024 * 1024, `${added.length} bytes`);
		appendFileSync(path, added);
		const { result, turns } = await countingTurns(() => session.applyAppend(before.length, added));
		assert.equal(result, true);
		assert.ok(turns > 2, `the event loop turned ${turns} times while it read`);
		const cold = runSteps(parseSessionSteps(readFileSync(path, 'utf8')));
		assert.deepEqual(session.model.entries, cold.entries);
		assert.deepEqual(session.model.diagnostics, cold.diagnostics);
		assert.equal(session.model.leafId, cold.leafId);
		assert.equal(session.consumed, before.length + added.length);
	});

	it('keeps one insight per snapshot and configuration', async () => {
		const { path, builder } = setUp();
		const session = await OpenSession.open(testWork, path);
		const settings = { config: defaults(LATEST), rules: LATEST };
		const first = session.insight(settings);
		assert.equal(session.insight(settings), first);
		assert.equal(session.insight({ ...settings }), first, 'the same configuration and release');
		assert.notEqual(session.insight({ ...settings, rules: R200 }), first, 'another release is another insight');
		session.insight(settings);
		const before = builder.text();
		builder.user('again');
		appendFileSync(path, builder.text().slice(before.length));
		await session.applyAppend(Buffer.byteLength(before), Buffer.from(builder.text().slice(before.length)));
		assert.notEqual(session.insight(settings), first);
		assert.equal(session.insight({ ...settings, config: { ...settings.config } }).config.enabled, settings.config.enabled);
	});

	it('keeps its costs ledger with its model: read on open, advanced by appended entries, read afresh on a rewrite', async () => {
		const source = readFileSync(join(piCondenseSessionsDir, 'batching-pi-1.6.0', 'session.jsonl'), 'utf8');
		const lines = source.split('\n').filter((line) => line !== '');
		const path = join(temp(), 'costs.jsonl');
		writeFileSync(path, `${lines.slice(0, 30).join('\n')}\n`);
		const session = await OpenSession.open(testWork, path, { keepCosts: true });
		const oneRead = (): unknown => runSteps(sessionOverviewSteps(runSteps(parseSessionSteps(readFileSync(path, 'utf8'))).entries, NO_PRICES));
		assert.deepEqual(session.costs?.overview(NO_PRICES), oneRead());
		for (let end = 30; end < lines.length; end += 7) {
			const before = readFileSync(path).length;
			const added = Buffer.from(`${lines.slice(end, end + 7).join('\n')}\n`);
			appendFileSync(path, added);
			assert.equal(await session.applyAppend(before, added), true);
			assert.equal(session.costs?.entriesRead, session.model.entries.length);
			assert.deepEqual(session.costs?.overview(NO_PRICES), oneRead(), `after line ${end + 7}`);
		}
		writeFileSync(path, `${lines.slice(0, 12).join('\n')}\n`);
		await session.reload();
		assert.deepEqual(session.costs?.overview(NO_PRICES), oneRead(), 'rewritten');
		assert.equal((await OpenSession.open(testWork, path)).costs, undefined, 'a session opened for one measurement keeps none');
	});
});
