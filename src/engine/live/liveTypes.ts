/**
 * What the bridge (our Pi extension, `bridge/`) tells VS Code about a running Pi: its state and a
 * digest of the last model request. Plain JSON, shared by the bridge and the extension. Types only.
 */

/** Where the bridge's `context` handler runs relative to pi-condense's (Pi runs them in load order). */
export type LoadOrder =
	/** pi-condense loads first: the bridge sees its output, what the provider gets. */
	| 'after-pi-condense'
	/** The bridge loads first: it sees the context before pi-condense pruned it. */
	| 'before-pi-condense'
	/** No `pruner` command is loaded: Pi sends its own context. */
	| 'no-pi-condense'
	/** Pi did not say (an older Pi without `getCommands`). */
	| 'unknown';

/** The pi-condense Pi loaded, as its `/pruner` command names it. */
export interface PiCondenseLoaded {
	/** `pi-condense` or `pi-context-prune` (from its package.json), else undefined. */
	readonly name: string | undefined;
	readonly version: string | undefined;
	/** Where the command came from (Pi's `sourceInfo.path`). */
	readonly path: string;
	/** The command as it is typed, without the slash: `pruner` (`pruner:2` when two extensions register one). */
	readonly command: string;
}

export interface LiveModel {
	readonly provider: string;
	readonly id: string;
	readonly contextWindow: number | undefined;
}

/** Pi's own figure of the context (`ctx.getContextUsage()`). */
export interface LiveUsage {
	/** Null right after a compaction, until the next reply. */
	readonly tokens: number | null;
	readonly contextWindow: number;
	readonly percent: number | null;
}

export interface BridgeState {
	readonly pid: number;
	readonly piVersion: string;
	/** Pi's mode: `tui`, `rpc`, `json` or `print`. */
	readonly mode: string;
	readonly cwd: string;
	/** Undefined for a session Pi keeps in memory only (`--no-session`). */
	readonly sessionFile: string | undefined;
	readonly sessionId: string;
	readonly leafId: string | null;
	readonly model: LiveModel | undefined;
	readonly thinkingLevel: string | undefined;
	/** Pi is running a turn (not idle). */
	readonly busy: boolean;
	readonly usage: LiveUsage | undefined;
	readonly piCondense: PiCondenseLoaded | undefined;
	readonly order: LoadOrder;
	/** The bridge's own version (the extension's). */
	readonly bridgeVersion: string;
}

/** One message as sent, by its canonical JSON (sorted keys): its length and a hash of it. */
export interface MessageDigest {
	readonly role: string;
	readonly chars: number;
	readonly hash: string;
}

export interface PartDigest {
	readonly chars: number;
	readonly hash: string;
}

/** The parts of a request whose exact text VS Code can ask for. */
export type SentPart = 'messages' | 'system' | 'payload';
export const SENT_PARTS: readonly SentPart[] = ['messages', 'system', 'payload'];

/** The last model request Pi made, as the bridge saw it. */
export interface SentDigest {
	/** Counts the requests of this Pi process. */
	readonly seq: number;
	/** Epoch ms of the `context` event. */
	readonly at: number;
	readonly sessionFile: string | undefined;
	/** The session's leaf when the request was made: the prediction is made for the branch ending there. */
	readonly leafId: string | null;
	readonly model: LiveModel | undefined;
	/** The messages of the `context` event as the bridge's handler got them. */
	readonly messages: readonly MessageDigest[];
	/** The system messages Pi put ahead of them (`context_with_system`), or its system prompt. */
	readonly system: PartDigest | undefined;
	/** The provider payload (`before_provider_request`), as the provider received it. */
	readonly payload: PartDigest | undefined;
	/** Messages a `context` handler loaded after the bridge changed: then the bridge did not see what was sent. */
	readonly changedAfterBridge: number;
}

export type PrunerSubcommand = 'now' | 'compact';
