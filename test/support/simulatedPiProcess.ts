/**
 * The simulated Pi (`simulatedPi.ts`) as a process of its own, as the concurrent-writer trials of the
 * writer and of the undo run it: one request at a time, over IPC.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from './paths';
import type { SimulatedPiReply, SimulatedPiRequest } from './simulatedPi';

/** The simulated Pi process, one request at a time. */
export class SimulatedPi {
	private readonly child: ChildProcess = fork(join(repoRoot, 'out/test/support/simulatedPi.js'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });

	append(request: SimulatedPiRequest): Promise<SimulatedPiReply> {
		return new Promise((done, fail) => {
			const exited = (): void => fail(new Error('the simulated Pi exited'));
			this.child.once('exit', exited);
			this.child.once('message', (reply: SimulatedPiReply) => {
				this.child.off('exit', exited);
				done(reply);
			});
			this.child.send(request);
		});
	}

	close(): Promise<void> {
		if (this.child.exitCode !== null || this.child.signalCode !== null) {
			return Promise.resolve();
		}
		return new Promise((done) => {
			this.child.once('exit', () => done());
			this.child.kill();
		});
	}
}

