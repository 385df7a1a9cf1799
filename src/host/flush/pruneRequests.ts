/**
 * The one way to ask for `/pruner now` or `/pruner compact` on a session from VS Code: the palette's
 * commands and the preview page's buttons call `run`, with typed arguments. A session a live Pi holds
 * gets the command in Pi's editor through its bridge (the user presses Enter there); any other is
 * flushed by the runner, after the confirmation `piCondense.confirmPrune` asks for.
 */
import type { FlushMode } from '../../engine/flush';
import type { FlushOutcome } from '../../node/flush/flushOutcome';
import type { ExtensionSettings } from '../extensionConfig';
import type { FlushRunner } from './flushRunner';

export interface PruneRequestsOptions {
	readonly runner: FlushRunner;
	readonly settings: ExtensionSettings;
	/** The log: each request is said there, with the session it is for. */
	readonly log: (message: string) => void;
	/**
	 * Puts the command into the editor of the live Pi holding the session; resolves with what the user
	 * was told, or undefined when no live Pi holds it.
	 */
	readonly inPi: (mode: FlushMode, sessionPath: string) => Promise<string | undefined>;
}

export class PruneRequests {
	constructor(private readonly options: PruneRequestsOptions) {}

	/** The outcome of the flush; undefined when it went to Pi's editor, or the user said no. */
	async run(mode: FlushMode, sessionPath: string): Promise<FlushOutcome | undefined> {
		this.options.log(`${mode === 'now' ? 'Summarize Now' : 'Compact Now'} asked for ${sessionPath}`);
		if ((await this.options.inPi(mode, sessionPath)) !== undefined) {
			return undefined;
		}
		return this.options.runner.run(mode, sessionPath, { confirm: this.options.settings.current.confirmPrune });
	}
}
