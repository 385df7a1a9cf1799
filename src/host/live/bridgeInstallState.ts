/**
 * Whether Pi is connected to VS Code, as the palette's `when` clauses need it (`contextKeys.ts`): the
 * bridge's install in Pi's agent dir (`bridgeInstallFacts`), read again when Pi's settings or the agent
 * dir change, when a live Pi comes or goes, and after Connect and Disconnect. A read reads two small
 * files; it starts no process and writes nothing. The reads are its scope's work: deactivation waits
 * for one under way (a live Pi leaving as the window closes asks for one), and none starts after.
 */
import * as vscode from 'vscode';
import { bridgeInstallFacts, bridgeInstallStatus, type BridgeInstallFacts } from '../../node/bridge/bridgeInstall';
import { errorMessage } from '../../base/errorMessage';
import { Disposable } from '../dispose';
import { isWorkStopped, type WorkScope } from '../../work';

export class BridgeInstallState extends Disposable {
	private readonly _onDidChange = this._register(new vscode.EventEmitter<void>());
	readonly onDidChange = this._onDidChange.event;
	private known: BridgeInstallFacts | undefined;
	private reads = 0;

	constructor(private readonly work: WorkScope, private readonly agentDir: () => string | undefined, private readonly log: (message: string) => void) {
		super();
	}

	/** Undefined until the agent dir is known and read once. */
	get facts(): BridgeInstallFacts | undefined {
		return this.known;
	}

	/** Reads the install again; when reads overlap, the last one started decides. */
	async refresh(): Promise<void> {
		const read = ++this.reads;
		const agentDir = this.agentDir();
		if (agentDir === undefined) {
			return;
		}
		let facts: BridgeInstallFacts;
		try {
			facts = bridgeInstallFacts(await this.work.run(() => bridgeInstallStatus(agentDir)));
		} catch (error) {
			if (!isWorkStopped(error)) {
				this.log(`reading the bridge's install in ${agentDir}: ${errorMessage(error)}`);
			}
			return;
		}
		if (this.work.isClosed) {
			return;
		}
		if (read === this.reads && (facts.installed !== this.known?.installed || facts.ready !== this.known.ready)) {
			this.known = facts;
			this._onDidChange.fire();
		}
	}
}
