/**
 * The header id of a session builds its blobs folder (`<id>-blobs` beside the file). A hostile id
 * (`../outside/evil`) or a blobs folder that is a link to elsewhere must not make a flush write, or
 * recovery read, anywhere else. Real ids (Pi's UUIDs, v4 and v7, v1 and v3 files) are accepted.
 * The sessions are real compaction output (2.9.1's backfill spills an 80 KB result), with the header
 * changed afterwards.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { recoverOutputs } from '../../../../src/engine/condense';
import { blobIdRefusal, isPiSessionId } from '../../../../src/node/condense/blobFolder';
import { sessionBlobReader } from '../../../../src/node/condense/sessionBlobReader';
import { createBlobWriter, writeInside } from '../../../../src/node/flush/blobWriter';
import { flushSession } from '../../../../src/node/flush/flushSession';
import type { FlushOutcome } from '../../../../src/node/flush/flushOutcome';
import { OpenSession } from '../../../../src/node/store/openSession';
import { useFlushEnvironment } from '../../../support/flushEnvironment';
import { flushConfig, output } from '../../../support/flushFixtures';
import { piCondenseSessionsDir, realSessionFiles } from '../../../support/paths';
import { SessionBuilder, text, toolCall } from '../../../support/sessionBuilder';
import { LATEST } from '../../../support/releases';
import { useTempDir } from '../../../support/tempDirs';
import { runSteps } from '../../../../src/engine/steps';
import { testWork } from '../../../support/testWork';

const REAL_ID = '01a22b2a-f0d9-7c01-8264-6403bf89dbdf';
const BIG = output('big', 80_000);

function headerId(file: string): string {
	const text = readFileSync(file, 'utf8');
	return (JSON.parse(text.slice(0, text.indexOf('\n'))) as { id: string }).id;
}

function withHeaderId(file: string, id: string): void {
	const text = readFileSync(file, 'utf8');
	const newline = text.indexOf('\n');
	writeFileSync(file, JSON.stringify({ ...JSON.parse(text.slice(0, newline)) as object, id }) + text.slice(newline));
}

describe('the blobs folder of a session', function () {
	this.timeout(30_000);
	const env = useFlushEnvironment({ text: '- [[1:read]] read it' });

	/**
	 * `sessions/s.jsonl`, one big bash result and a small read in a closed chain no summary covers,
	 * compacted as 2.9.1 does with `id` in its header: its index backfill is the only spill a flush makes.
	 */
	async function compacted(id: string): Promise<{ file: string; outcome: FlushOutcome }> {
		const builder = new SessionBuilder({ id });
		builder.user('Fetch the log.');
		builder.assistant([toolCall('big1', 'bash', { command: 'cat big.log' }), toolCall('small', 'read', { path: 'a.ts' })]);
		builder.toolResult('big1', 'bash', BIG);
		builder.toolResult('small', 'read', output('small', 1200));
		builder.assistant([text('Done.')]);
		builder.user('Thanks.');
		builder.assistant([text('You are welcome.')]);
		mkdirSync(join(env.dir.path, 'sessions'));
		const file = env.dir.file(join('sessions', 's.jsonl'), builder.text());
		return { file, outcome: await flushSession(testWork, env.request(file, { mode: 'compact', rules: LATEST })) };
	}

	/** A compacted session with a real id: its big result spilled; returns the blob's file name. */
	async function spilledSession(): Promise<{ file: string; blob: string }> {
		const { file, outcome } = await compacted(REAL_ID);
		assert.equal(outcome.kind, 'written', outcome.message);
		const blobs = readdirSync(join(dirname(file), `${REAL_ID}-blobs`));
		assert.equal(blobs.length, 1, 'the big result was spilled');
		assert.match(blobs[0] ?? '', /^big1_\d+\.txt$/, 'named after its occurrence key (2.6.0+)');
		return { file, blob: blobs[0] as string };
	}

	it('accepts the ids of every real session (v1 and v3 files, UUID v4 and v7)', () => {
		const files = [...realSessionFiles(), ...readdirSync(piCondenseSessionsDir).filter((name) => existsSync(join(piCondenseSessionsDir, name, 'session.jsonl'))).map((name) => join(piCondenseSessionsDir, name, 'session.jsonl'))];
		assert.ok(files.length >= 8);
		for (const file of files) {
			assert.ok(isPiSessionId(headerId(file)), `${file}: ${headerId(file)}`);
		}
		for (const id of ['../../../../tmp/evil', 'abc', '', `${REAL_ID}/..`, `${REAL_ID}\n`, `../${REAL_ID}`, '01a22b2a-f0d9-7c01-8264-6403bf89dbdg']) {
			assert.equal(isPiSessionId(id), false, JSON.stringify(id));
		}
	});

	it('a compaction of a session whose id climbs out writes nothing outside: the backfill is abandoned, as the release does when a spill fails', async () => {
		const { file, outcome } = await compacted('../outside/evil');
		assert.deepEqual(readdirSync(env.dir.path).sort(), ['sessions']);
		assert.deepEqual(readdirSync(dirname(file)), ['s.jsonl']);
		assert.equal(outcome.kind, 'nothing', outcome.message);
		assert.ok(!readFileSync(file, 'utf8').includes('context-prune-'), 'nothing appended (retried at the next flush)');
	});

	it('recovery does not read a blob through a hostile id, and says why; the session still opens', async () => {
		const { file, blob } = await spilledSession();
		// The same session, now claiming an id that points at a folder holding someone else's file.
		withHeaderId(file, '../outside/evil');
		mkdirSync(join(env.dir.path, 'outside', 'evil-blobs'), { recursive: true });
		writeFileSync(join(env.dir.path, 'outside', 'evil-blobs', blob), 'SECRET FROM ELSEWHERE');
		const refusals: string[] = [];
		const session = await OpenSession.open(testWork, file, { onBlobsRefused: (reason) => refusals.push(reason) });
		const state = runSteps(session.insight({ config: flushConfig(), rules: LATEST }).stateSteps());
		assert.equal(state.spilled.length, 1, 'the session and its spilled record are shown');
		const recovered = (await recoverOutputs(state, ['big1'], session.blobs)).text;
		assert.ok(!recovered.includes('SECRET FROM ELSEWHERE'), recovered);
		assert.match(recovered, /big line 1: request handled/, 'the stored preview stands in');
		// Said on each refused read (the store logs each reason once).
		assert.ok(refusals.length > 0);
		assert.deepEqual(new Set(refusals), new Set([blobIdRefusal(file, '../outside/evil')]));
	});

	it('a blobs folder that is a link out of the session folder is neither read nor written', async () => {
		const { file, blob } = await spilledSession();
		const blobs = join(dirname(file), `${REAL_ID}-blobs`);
		const elsewhere = join(env.dir.path, 'elsewhere');
		renameSync(blobs, elsewhere);
		symlinkSync(elsewhere, blobs);
		const refusals: string[] = [];
		assert.equal(await sessionBlobReader(file, REAL_ID, (reason) => refusals.push(reason)).readBlob(blob), undefined);
		assert.match(refusals[0] ?? '', /its blobs folder .* leads to .*elsewhere, outside the session's folder/);
		const before = readdirSync(elsewhere);
		await assert.rejects(createBlobWriter(file, REAL_ID).writeBlob('big2.txt', 'second body'), /leads to .*elsewhere, outside the session's folder, so its spilled outputs are neither read nor written/);
		assert.deepEqual(readdirSync(elsewhere), before);
	});
});

describe('writing a blob into a checked folder', () => {
	const temp = useTempDir('blob-write');

	it('writes nothing when the folder is swapped for a link to elsewhere after the check', async () => {
		const folder = join(temp(), `${REAL_ID}-blobs`);
		const elsewhere = join(temp(), 'elsewhere');
		mkdirSync(folder);
		mkdirSync(elsewhere);
		await assert.rejects(writeInside(folder, 'call_1.txt', 'secret output', {
			beforeRename: () => {
				renameSync(folder, join(temp(), 'moved'));
				symlinkSync(elsewhere, folder);
				return Promise.resolve();
			},
		}), /was replaced while writing/);
		assert.deepEqual(readdirSync(elsewhere), []);
	});

	it('writes the blob whole, and leaves no temporary file', async () => {
		const folder = join(temp(), `${REAL_ID}-blobs`);
		mkdirSync(folder);
		await writeInside(folder, 'call_1.txt', 'output');
		assert.deepEqual(readdirSync(folder), ['call_1.txt']);
		assert.equal(readFileSync(join(folder, 'call_1.txt'), 'utf8'), 'output');
	});
});
