/**
 * The preview host answers a burst of refreshes (a what-if typed key by key, a session growing)
 * with one computation for all those still waiting, made from the latest what-if: on a large
 * session each computation holds the extension host, so queuing one per request would hold it
 * once per keystroke. Real reference session, real engine, the host's own protocol logic.
 */
import assert from 'node:assert/strict';
import { PageHost } from '../../../../src/host/preview/pageHost';
import type { ToWebview } from '../../../../src/shared/protocol';
import { referenceAgentDir, type ReferenceAgentDir } from '../../../support/referenceAgentDir';
import { SessionFileSource } from '../../../support/sessionFileSource';
import { LATEST, R200 } from '../../../support/releases';
import { prunedSyntheticAgentDir } from '../../../support/prunedSyntheticSession';
import { testWork } from '../../../support/testWork';

describe('PageHost: a newer refresh supersedes one still waiting', () => {
	let fixture: ReferenceAgentDir;
	let source: SessionFileSource;

	before(async () => {
		fixture = referenceAgentDir('recovery-2.9.1');
		source = new SessionFileSource(fixture.sessionFile, fixture.agentDir, LATEST);
		await source.reload();
	});

	after(() => fixture.cleanup());

	/** A host whose posts wait until `release()`: the first computation is "running" meanwhile. */
	function heldHost(): { host: PageHost; posted: ToWebview[]; release: () => void } {
		const posted: ToWebview[] = [];
		let open: () => void = () => undefined;
		const gate = new Promise<void>((resolve) => open = resolve);
		const host = new PageHost({
			work: testWork.child('page'),
			source,
			post: async (message) => {
				posted.push(message);
				await gate;
			},
			openBlock: () => Promise.resolve(),
			notify: () => undefined,
			setTitle: () => undefined,
			onReport: () => undefined,
			log: (message) => assert.fail(message),
		});
		return { host, posted, release: open };
	}

	const snapshots = (posted: readonly ToWebview[]) => posted.flatMap((message) => message.type === 'snapshot' ? [message] : []);

	/** Lets the first computation run (in slices: one turn or several, as the machine's load decides) until its snapshot is being posted. */
	async function untilFirstPosted(posted: readonly ToWebview[]): Promise<void> {
		for (let turn = 0; turn < 100_000 && snapshots(posted).length === 0; turn++) {
			await new Promise((resolve) => setImmediate(resolve));
		}
	}

	it('computes once for every what-if typed while the previous computation was still posting, with the last one', async () => {
		const { host, posted, release } = heldHost();
		const opened = host.handle({ type: 'ready', state: undefined });
		await untilFirstPosted(posted);
		assert.equal(snapshots(posted).length, 1, 'the first snapshot is being posted');
		const typed = [5, 6, 7].map((rollingWindow) => host.handle({ type: 'setWhatIf', overrides: { 'chainCompression.rollingWindow': rollingWindow } }));
		release();
		await Promise.all([opened, ...typed]);
		const sent = snapshots(posted);
		assert.equal(sent.length, 2, 'one snapshot for the page load, one for the three what-ifs');
		assert.equal(sent[0]?.cause, 'open');
		assert.equal(sent[1]?.cause, 'whatIf');
		assert.equal(sent[1]?.snapshot.whatIf.effective['chainCompression.rollingWindow'], 7);
	});

	it('keeps a waiting page load\'s cause when a what-if joins it', async () => {
		const { host, posted, release } = heldHost();
		const first = host.handle({ type: 'ready', state: undefined });
		await untilFirstPosted(posted);
		assert.equal(snapshots(posted).length, 1, 'the first snapshot is being posted');
		const reload = host.handle({ type: 'ready', state: undefined });
		const typed = host.handle({ type: 'setWhatIf', overrides: { 'chainCompression.rollingWindow': 6 } });
		release();
		await Promise.all([first, reload, typed]);
		assert.deepEqual(snapshots(posted).map((message) => message.cause), ['open', 'open']);
	});

	it('stops a computation under way when a what-if arrives, and lets the thread run meanwhile', async function () {
		this.timeout(60_000);
		const large = prunedSyntheticAgentDir({ contextMessages: 10_000 });
		try {
			const largeSource = new SessionFileSource(large.sessionFile, large.agentDir, R200);
			await largeSource.reload();
			const posted: ToWebview[] = [];
			const host = new PageHost({
				work: testWork.child('page'),
				source: largeSource,
				post: (message) => {
					posted.push(message);
					return Promise.resolve();
				},
				openBlock: () => Promise.resolve(),
				notify: () => undefined,
				setTitle: () => undefined,
				onReport: () => undefined,
				log: (message) => assert.fail(message),
			});
			let turns = 0;
			const ticker = setInterval(() => turns++, 0);
			const opened = host.handle({ type: 'ready', state: undefined });
			// Let the page load's computation start, then type while it runs.
			await new Promise((resolve) => setTimeout(resolve, 20));
			assert.equal(snapshots(posted).length, 0, 'the first computation is still under way');
			turns = 0;
			const typed = host.handle({ type: 'setWhatIf', overrides: { 'chainCompression.rollingWindow': 7 } });
			await Promise.all([opened, typed]);
			clearInterval(ticker);
			const sent = snapshots(posted);
			assert.equal(sent.length, 1, 'the stopped computation posts nothing; the newer one answers both');
			assert.equal(sent[0]?.cause, 'open', 'the page load\'s cause is kept (the page restores its state on it)');
			assert.equal(sent[0]?.snapshot.whatIf.effective['chainCompression.rollingWindow'], 7);
			assert.ok(turns > 10, `other work ran between the slices (${turns} timer turns)`);
		} finally {
			large.cleanup();
		}
	});
});
