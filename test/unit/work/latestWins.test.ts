import assert from 'node:assert/strict';
import type { Steps } from '../../../src/engine/steps';
import { WorkStopped, type WorkScope } from '../../../src/work';
import { testScope } from '../../support/testWork';

/** Work whose runs the test finishes by hand; each run is logged with how it ended. */
class ScriptedWork {
	readonly log: string[] = [];
	private readonly runs: { readonly id: number; readonly finish: () => void; readonly signal: AbortSignal }[] = [];
	private started = 0;
	/** How many runs were under way at once, at most. */
	maxAtOnce = 0;
	private atOnce = 0;

	readonly run = (signal: AbortSignal): Promise<void> => {
		const id = ++this.started;
		this.log.push(`start ${id}`);
		this.atOnce++;
		this.maxAtOnce = Math.max(this.maxAtOnce, this.atOnce);
		return new Promise<void>((resolve, reject) => {
			const end = (outcome: string): void => {
				this.atOnce--;
				this.log.push(`${outcome} ${id}`);
			};
			signal.addEventListener('abort', () => {
				end('stopped');
				reject(new WorkStopped());
			});
			this.runs.push({ id, signal, finish: () => {
				end('done');
				resolve();
			} });
		});
	};

	/** Finishes the oldest run still under way (not stopped). */
	finish(): void {
		const run = this.runs.find((candidate) => !candidate.signal.aborted);
		this.runs.splice(this.runs.indexOf(run as never), 1);
		run?.finish();
	}
}

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('LatestWins', () => {
	let scope: WorkScope;
	beforeEach(() => {
		scope = testScope('latest wins');
	});
	afterEach(() => scope.close());

	it('restart: stops the run under way and answers its callers with the newer run', async () => {
		const work = new ScriptedWork();
		const latest = scope.latestWins(work.run, (error) => assert.fail(String(error)));
		let firstDone = false;
		const first = latest.request('restart').then(() => {
			firstDone = true;
		});
		const second = latest.request('restart');
		await turn();
		assert.deepEqual(work.log, ['start 1', 'stopped 1', 'start 2']);
		assert.equal(firstDone, false, 'the stopped run\'s caller waits for the newer one');
		work.finish();
		await Promise.all([first, second]);
		assert.deepEqual(work.log, ['start 1', 'stopped 1', 'start 2', 'done 2']);
		assert.equal(work.maxAtOnce, 1, 'runs never overlap');
	});

	it('follow: lets the run under way finish, then runs once more for every request made meanwhile', async () => {
		const work = new ScriptedWork();
		const latest = scope.latestWins(work.run, (error) => assert.fail(String(error)));
		let firstDone = false;
		const first = latest.request('follow').then(() => {
			firstDone = true;
		});
		const second = latest.request('follow');
		const third = latest.request('follow');
		work.finish();
		await first;
		assert.equal(firstDone, true, 'the first caller is answered by the run it started');
		await turn();
		assert.deepEqual(work.log, ['start 1', 'done 1', 'start 2']);
		work.finish();
		await Promise.all([second, third]);
		assert.deepEqual(work.log, ['start 1', 'done 1', 'start 2', 'done 2']);
	});

	it('a restart after a follow still stops the run under way: one run answers both', async () => {
		const work = new ScriptedWork();
		const latest = scope.latestWins(work.run, (error) => assert.fail(String(error)));
		void latest.request('follow');
		const followed = latest.request('follow');
		const restarted = latest.request('restart');
		assert.equal(followed, restarted, 'the requests made meanwhile share the run that follows');
		await turn();
		work.finish();
		await restarted;
		assert.deepEqual(work.log, ['start 1', 'stopped 1', 'start 2', 'done 2']);
	});

	it('cancel: stops the run under way and drops the runs asked for; a later request runs', async () => {
		const work = new ScriptedWork();
		const latest = scope.latestWins(work.run, (error) => assert.fail(String(error)));
		const first = latest.request('follow');
		const dropped = latest.request('follow');
		latest.cancel();
		await Promise.all([first, dropped]);
		assert.deepEqual(work.log, ['start 1', 'stopped 1']);
		const later = latest.request('restart');
		work.finish();
		await later;
		await latest.idle();
		assert.deepEqual(work.log, ['start 1', 'stopped 1', 'start 2', 'done 2']);
	});

	it('tells other failures and keeps serving; its promises never reject; nothing runs once its scope is closed', async () => {
		const errors: unknown[] = [];
		let calls = 0;
		const latest = scope.latestWins(() => {
			calls++;
			return calls === 1 ? Promise.reject(new Error('broken')) : Promise.resolve();
		}, (error) => errors.push(error));
		await latest.request('restart');
		await latest.request('restart');
		assert.deepEqual(errors.map(String), ['Error: broken']);
		assert.equal(calls, 2);
		await scope.close();
		await latest.request('restart');
		assert.equal(calls, 2);
	});

	it('stops sliced work at its next slice', async () => {
		let closed = 0;
		function* endless(): Steps<void> {
			try {
				for (;;) {
					yield;
				}
			} finally {
				closed++;
			}
		}
		let runs = 0;
		let finished = 0;
		const latest = scope.latestWins(async (signal) => {
			if (++runs === 1) {
				await scope.sliced(endless(), signal);
			}
			finished++;
		}, (error) => assert.fail(String(error)));
		const first = latest.request('restart');
		await turn();
		await Promise.all([first, latest.request('restart')]);
		assert.equal(closed, 1, 'the endless pass was stopped and closed');
		assert.equal(finished, 1, 'the newer run ran');
	});
});

describe('LatestWins under a closing scope', () => {
	it('stops the run under way, answers every caller, and waits for the run before the scope says it closed', async () => {
		const scope = testScope('closing');
		let ended = false;
		const latest = scope.latestWins(async (signal) => {
			await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
			// What a run does after its signal (a file read it cannot cut): closing waits for it.
			await new Promise((resolve) => setTimeout(resolve, 20));
			ended = true;
		});
		const first = latest.request('follow');
		const second = latest.request('follow');
		await scope.close();
		assert.equal(ended, true, 'the run had ended when close resolved');
		await Promise.all([first, second]);
	});
});
