/**
 * The login shell's PATH for this window: read once (`loginShellPath.ts`), when the composition root
 * says a process may run (a trusted workspace), and heard by whoever looks for Pi (the release
 * detection, the pi-ai loader) when it arrives. Until then it says why it is not known.
 */
import { Emitter } from '../../base/emitter';
import { errorMessage } from '../../base/errorMessage';
import type { LoginShellState } from '../../engine/release';
import { isWorkStopped, type WorkScope } from '../../work';
import type { Environment } from './agentDir';
import { readLoginShellPath } from './loginShellPath';

export const NOT_TRUSTED: LoginShellState = { kind: 'unavailable', reason: 'the workspace is not trusted, and Pi Condense runs no process in restricted mode' };

export class LoginShellSource {
	private readonly changed: Emitter<LoginShellState>;
	readonly onDidChange;
	private state: LoginShellState = NOT_TRUSTED;
	private started = false;

	constructor(private readonly work: WorkScope, private readonly env: Environment, private readonly deadlineMs?: number) {
		this.changed = new Emitter((error) => work.report(error));
		this.onDidChange = this.changed.event;
		work.onClose(() => this.changed.dispose());
	}

	get current(): LoginShellState {
		return this.state;
	}

	/** Asks the login shell, once per window; call it only where a process may run. */
	read(): void {
		if (this.started || this.work.isClosed) {
			return;
		}
		this.started = true;
		this.set({ kind: 'pending' });
		this.work.start(async (signal) => {
			const read = await readLoginShellPath({ env: this.env, signal, ...(this.deadlineMs === undefined ? {} : { deadlineMs: this.deadlineMs }) })
				.catch((error: unknown): LoginShellState => ({ kind: 'unavailable', reason: errorMessage(error) }));
			if (!signal.aborted) {
				this.set(read);
			}
		}, (error) => {
			if (!isWorkStopped(error)) {
				this.set({ kind: 'unavailable', reason: errorMessage(error) });
			}
		});
	}

	private set(state: LoginShellState): void {
		this.state = state;
		this.changed.fire(state);
	}
}
