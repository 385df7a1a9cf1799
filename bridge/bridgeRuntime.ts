/**
 * The bridge of one Pi process: one endpoint, one record, whatever session Pi has open. Pi replaces
 * the extension's instance on `/new`, `/resume`, `/fork` and `/reload`; the runtime outlives the
 * instance (it is kept on `globalThis`), so VS Code's connections stay up and the record is rebound
 * to the new session file. It stops (record and socket removed) when Pi quits, on `/reload` (the new
 * instance starts afresh, possibly a newer bridge), or when no session follows a shutdown.
 * `/pruner` commands go into the editor only in Pi's terminal mode, the only one where Pi can say
 * whether the editor holds a draft (in RPC mode `getEditorText()` is always "").
 */
import { errorMessage } from '../src/base/errorMessage';
import { BRIDGE_PROTOCOL, type BridgeState, type PrunerSubcommand, type SentDigest } from '../src/engine/live';
import { newToken } from '../src/node/bridge/bridgeToken';
import { newSocketPath, removeRecord, removeRecordNow, writeRecord } from '../src/node/bridge/recordFiles';
import { bridgeFolder } from '../src/node/bridge/runtimeFolder';
import { WorkScope } from '../src/work';
import { BridgeServer, type BridgeCalls } from './bridgeServer';
import { stateOf, type PiContext, type StaticFacts } from './piFacts';
import { RequestCapture } from './requestCapture';

/** How long a shutdown for `/new`, `/resume` or `/fork` waits for the next session before the bridge stops. */
const REBIND_GRACE_MS = 10_000;

interface Endpoint {
	readonly folder: string;
	readonly socket: string;
	readonly token: string;
	readonly server: BridgeServer;
	readonly startedAt: number;
}

/** The bridge's own root of running work in Pi's process: its failures are not Pi's, so nothing is said. */
function bridgeRoot(): WorkScope {
	return WorkScope.root('bridge', () => undefined);
}

export class BridgeRuntime implements BridgeCalls {
	readonly capture = new RequestCapture();
	/** What the endpoint computes (digests, exact text) runs under it; stopping the bridge closes it. */
	work = bridgeRoot();
	private endpoint: Endpoint | undefined;
	private starting: Promise<void> | undefined;
	private context: PiContext | undefined;
	private facts: StaticFacts | undefined;
	private thinkingLevel: () => string | undefined = () => undefined;
	private lastState: BridgeState | undefined;
	private stopTimer: NodeJS.Timeout | undefined;
	/** Removes the record if Pi exits without a shutdown; taken off when the endpoint stops (a reload adds its own). */
	private onExit: (() => void) | undefined;
	/** Why the bridge is not serving, when it could not start (shown by its command in Pi). */
	problem: string | undefined;

	/** A session started (or was replaced): serve it. */
	async bind(context: PiContext, facts: StaticFacts, thinkingLevel: () => string | undefined): Promise<void> {
		clearTimeout(this.stopTimer);
		this.context = context;
		this.facts = facts;
		this.thinkingLevel = thinkingLevel;
		this.starting ??= this.start();
		await this.starting;
		await this.rewriteRecord();
		this.stateChanged();
	}

	/** Any event: its context is the freshest view of the session. */
	touch(context: PiContext): void {
		this.context = context;
	}

	/** Pi is shutting this session down. */
	async unbind(reason: string): Promise<void> {
		if (reason === 'quit' || reason === 'reload') {
			await this.stop(reason === 'quit' ? 'Pi quit' : 'Pi reloaded its extensions');
			// After a reload the new instance may be a newer bridge: it starts a runtime of its own.
			forgetRuntime(this);
			return;
		}
		clearTimeout(this.stopTimer);
		this.stopTimer = setTimeout(() => void this.stop('no session followed'), REBIND_GRACE_MS);
		this.stopTimer.unref();
	}

	get connectedClients(): number {
		return this.endpoint?.server.clientCount ?? 0;
	}

	get socketPath(): string | undefined {
		return this.endpoint?.socket;
	}

	/** Tells connected clients what changed (nothing is computed while none listens). */
	stateChanged(): void {
		if (this.connectedClients > 0) {
			this.endpoint?.server.broadcast({ type: 'state', state: this.state() });
		}
	}

	/** A request completed: its digest goes to the clients, computed in slices after the request left. */
	requestSent(): void {
		if (this.connectedClients === 0) {
			return;
		}
		void this.lastRequest().then((sent) => sent && this.endpoint?.server.broadcast({ type: 'sent', sent }), () => undefined);
	}

	// ──── BridgeCalls ────

	async welcome(): Promise<{ readonly state: BridgeState; readonly last: SentDigest | undefined }> {
		return { state: this.state(), last: await this.lastRequest() };
	}

	state(): BridgeState {
		const { context, facts } = this;
		if (context && facts) {
			try {
				this.lastState = stateOf(context, facts, this.thinkingLevel());
			} catch {
				// The context of a replaced session: the last state read stands until the next session binds.
			}
		}
		if (!this.lastState) {
			throw new Error('no session yet');
		}
		return this.lastState;
	}

	lastRequest(): Promise<SentDigest | undefined> {
		return this.work.sliced(this.capture.digestSteps());
	}

	text(seq: number, part: 'messages' | 'system' | 'payload', emit: (piece: string) => void): ReturnType<BridgeCalls['text']> {
		return this.capture.textSteps(seq, part, emit);
	}

	putPrunerCommand(command: PrunerSubcommand): { readonly ok: true; readonly text: string } | { readonly ok: false; readonly error: string } {
		const pruner = this.facts?.piCondense;
		const ui = this.context?.ui;
		if (!pruner) {
			return { ok: false, error: 'pi-condense is not loaded in this Pi (no /pruner command)' };
		}
		if (!ui) {
			return { ok: false, error: 'no session is open in this Pi' };
		}
		const text = `/${pruner.command} ${command}`;
		const mode = this.context?.mode;
		// Only Pi's terminal editor says what it holds: elsewhere an empty answer may hide a draft, which would be lost.
		if (mode !== 'tui' || ui.getEditorText === undefined) {
			if (mode === 'rpc') {
				ui.notify(`VS Code asked for ${text}: type it in the editor and press Enter. (Pi cannot see this editor's text in RPC mode, so it was not put there, where it could replace a draft.)`, 'info');
			}
			return { ok: false, error: unseenEditor(mode) };
		}
		const typed = ui.getEditorText();
		if (typed.trim() !== '' && typed.trim() !== text) {
			return { ok: false, error: 'Pi\'s editor holds text the user typed; it was left as it is' };
		}
		ui.setEditorText(text);
		ui.notify(`VS Code put ${text} in the editor: press Enter to run it.`, 'info');
		return { ok: true, text };
	}

	// ──── Endpoint ────

	private async start(): Promise<void> {
		const found = await bridgeFolder();
		if ('problems' in found) {
			this.problem = `no private folder for the VS Code bridge: ${found.problems.join('; ')}`;
			this.context?.ui.notify(`Pi Condense bridge is off: ${this.problem}`, 'warning');
			return;
		}
		const socket = newSocketPath(found.folder, process.pid);
		const token = newToken();
		try {
			const server = await BridgeServer.listen(socket, token, this);
			this.endpoint = { folder: found.folder, socket, token, server, startedAt: Date.now() };
			this.problem = undefined;
			// Pi leaving without a shutdown (process.exit after an error): the record goes with it.
			this.onExit = () => removeRecordNow(found.folder, process.pid, socket);
			process.once('exit', this.onExit);
		} catch (error) {
			this.problem = `the bridge's socket could not be opened: ${errorMessage(error)}`;
		}
	}

	private async rewriteRecord(): Promise<void> {
		const endpoint = this.endpoint;
		const context = this.context;
		if (!endpoint || !context || !this.facts) {
			return;
		}
		let sessionFile: string | undefined;
		try {
			sessionFile = context.sessionManager.getSessionFile();
		} catch {
			return;
		}
		await writeRecord(endpoint.folder, {
			protocol: BRIDGE_PROTOCOL, pid: process.pid, socket: endpoint.socket, token: endpoint.token,
			piVersion: this.facts.piVersion, cwd: context.cwd, sessionFile, startedAt: endpoint.startedAt,
		});
	}

	private async stop(reason: string): Promise<void> {
		clearTimeout(this.stopTimer);
		const endpoint = this.endpoint;
		this.endpoint = undefined;
		this.starting = undefined;
		this.context = undefined;
		if (this.onExit) {
			process.off('exit', this.onExit);
			this.onExit = undefined;
		}
		const work = this.work;
		this.work = bridgeRoot();
		if (endpoint) {
			await removeRecord(endpoint.folder, process.pid, endpoint.socket).catch(() => undefined);
			await endpoint.server.close(reason);
		}
		await work.close();
	}
}

/** Why the command was not put into the editor of a Pi whose editor text the bridge cannot read. */
function unseenEditor(mode: string | undefined): string {
	switch (mode) {
		case 'rpc':
			return 'it runs in RPC mode (another program, an IDE or a web page, drives it and keeps its editor), where Pi cannot see whether the editor holds a draft, so nothing was put there';
		case 'print':
		case 'json':
			return `it runs in ${mode} mode, which has no editor`;
		case undefined:
			return 'this Pi does not say whether it runs in a terminal (Pi 1.x does), so it cannot tell whether its editor holds a draft; nothing was put there';
		default:
			return `it runs in ${JSON.stringify(mode.slice(0, 32))} mode, where the bridge cannot tell whether its editor holds a draft; nothing was put there`;
	}
}

const RUNTIME_KEY = Symbol.for('pi-condense-vscode.bridge');

const holder = globalThis as { [RUNTIME_KEY]?: BridgeRuntime };

/** The runtime of this Pi process (created on first use; a replaced extension instance finds it again). */
export function bridgeRuntime(): BridgeRuntime {
	holder[RUNTIME_KEY] ??= new BridgeRuntime();
	return holder[RUNTIME_KEY];
}

function forgetRuntime(runtime: BridgeRuntime): void {
	if (holder[RUNTIME_KEY] === runtime) {
		delete holder[RUNTIME_KEY];
	}
}
