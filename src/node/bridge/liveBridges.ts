/**
 * The running Pis VS Code can see: every bridge record in the private runtime folders, connected,
 * kept up to date, and dropped when its Pi goes. A record whose Pi is gone (killed with SIGKILL, so
 * it could not remove it) is stale: it is removed, with its socket, when `cleanStale` allows (VS
 * Code's side does it only in a trusted workspace). A record that refuses the connection is retried
 * after a pause, never in a loop. Follows the folders by watching them and by a slow poll.
 */
import { watch, type FSWatcher } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { BridgeRecord, BridgeState, SentDigest } from '../../engine/live';
import { errorMessage } from '../../base/errorMessage';
import { Emitter } from '../../base/emitter';
import { BridgeClient } from './bridgeClient';
import { readRecords, removeRecord } from './recordFiles';
import { checkPrivateFolder, discoveryFolders } from './runtimeFolder';
import type { LatestWins, WorkScope } from '../../work';

export const POLL_MS = 2000;
/** A record that refused a connection is tried again after this long (or when it is rewritten). */
export const RETRY_MS = 15_000;

export interface LivePi {
	readonly record: BridgeRecord;
	readonly client: BridgeClient;
	readonly state: BridgeState;
	readonly last: SentDigest | undefined;
}

export interface LiveBridgesOptions {
	/** Their own scope: closing it stops the scans and the poll, and closes every connection. */
	readonly work: WorkScope;
	readonly folders?: () => readonly string[];
	/** Whether stale records may be removed now. */
	readonly cleanStale: () => boolean;
	readonly log: { info(message: string): void; warn(message: string): void; debug(message: string): void };
	readonly pollMs?: number;
	readonly isAlive?: (pid: number) => boolean;
	readonly removeStale?: (folder: string, record: BridgeRecord) => Promise<void>;
}

function processAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		// EPERM: alive, another user's process (its record would not be in our folder, but be safe).
		return (error as { code?: string }).code === 'EPERM';
	}
}

const keyOf = (record: BridgeRecord): string => `${record.pid}:${record.socket}:${record.startedAt}`;

export class LiveBridges {
	private readonly _onDidChange = new Emitter<void>();
	private readonly _onDidSend = new Emitter<LivePi>();
	/** The set of live Pis or a state changed. */
	readonly onDidChange = this._onDidChange.event;
	/** A live Pi made a model request (its `last` is the new digest). */
	readonly onDidSend = this._onDidSend.event;
	private readonly live = new Map<string, { record: BridgeRecord; client: BridgeClient; sessionKeys: string[] }>();
	private readonly connecting = new Set<string>();
	private readonly refusedAt = new Map<string, number>();
	private readonly reported = new Set<string>();
	private readonly watchers = new Map<string, FSWatcher>();
	/** Scans never overlap; one asked for during a scan follows it. */
	private readonly scans: LatestWins;

	constructor(private readonly options: LiveBridgesOptions) {
		this.scans = options.work.latestWins(() => this.scanOnce(), (error) => this.options.log.warn(`bridges: ${errorMessage(error)}`));
		options.work.onClose(() => this.stopFollowing());
	}

	start(): void {
		void this.scan();
		this.options.work.interval(this.options.pollMs ?? POLL_MS, () => void this.scan());
	}

	private get stopped(): boolean {
		return this.options.work.isClosed;
	}

	/** Closing the scope: the watches and connections end, and no event follows. */
	private stopFollowing(): void {
		for (const watcher of this.watchers.values()) {
			watcher.close();
		}
		this.watchers.clear();
		for (const { client } of this.live.values()) {
			client.close();
		}
		this.live.clear();
		this._onDidChange.dispose();
		this._onDidSend.dispose();
	}

	get pis(): readonly LivePi[] {
		return [...this.live.values()].map(({ record, client }) => ({ record, client, state: client.state, last: client.last }));
	}

	/** The live Pi holding this session file, if a bridge says one does. */
	forSession(path: string): LivePi | undefined {
		const wanted = resolve(path);
		return this.pis.find((pi) => this.live.get(keyOf(pi.record))?.sessionKeys.includes(wanted));
	}

	/** One pass over the folders (also what the watchers and the poll run); passes never overlap. */
	scan(): Promise<void> {
		return this.scans.request('follow');
	}

	private async scanOnce(): Promise<void> {
		const seen = new Set<string>();
		for (const folder of (this.options.folders ?? discoveryFolders)()) {
			if (this.stopped) {
				return;
			}
			const check = await checkPrivateFolder(folder);
			if (!check.ok) {
				if (!check.problem.endsWith('does not exist')) {
					this.once(`folder:${folder}`, () => this.options.log.warn(`bridges: not reading ${check.problem}`));
				}
				continue;
			}
			this.watch(folder);
			const { records, problems } = await readRecords(folder);
			for (const problem of problems) {
				this.once(`record:${problem}`, () => this.options.log.warn(`bridges: ignored ${problem}`));
			}
			for (const { record } of records) {
				if (this.stopped) {
					return;
				}
				seen.add(keyOf(record));
				await this.follow(folder, record);
			}
		}
		for (const [key, entry] of this.live) {
			if (!seen.has(key)) {
				entry.client.close();
			}
		}
	}

	private async follow(folder: string, record: BridgeRecord): Promise<void> {
		const key = keyOf(record);
		if (this.live.has(key) || this.connecting.has(key) || this.stopped) {
			return;
		}
		if (!(this.options.isAlive ?? processAlive)(record.pid)) {
			await this.stale(folder, record, 'is no longer running');
			return;
		}
		const refused = this.refusedAt.get(key);
		if (refused !== undefined && Date.now() - refused < RETRY_MS) {
			return;
		}
		this.connecting.add(key);
		try {
			const client = await BridgeClient.connect(record);
			this.refusedAt.delete(key);
			await this.adopt(key, record, client);
		} catch (error) {
			const message = errorMessage(error);
			// Nobody listens on the socket: the Pi that wrote the record is gone (its pid reused).
			if (/ECONNREFUSED|ENOENT/.test(message)) {
				await this.stale(folder, record, 'no longer listens');
			} else {
				this.refusedAt.set(key, Date.now());
				this.options.log.warn(`bridges: could not connect to Pi ${record.pid}: ${message}`);
			}
		} finally {
			this.connecting.delete(key);
		}
	}

	private async adopt(key: string, record: BridgeRecord, client: BridgeClient): Promise<void> {
		if (this.stopped) {
			client.close();
			return;
		}
		const entry = { record, client, sessionKeys: namedKeys(client.state) };
		entry.sessionKeys = await withRealPath(entry.sessionKeys);
		this.live.set(key, entry);
		this.options.log.info(`bridges: connected to Pi ${record.pid} (${client.state.piVersion}, ${client.state.mode}) on ${client.state.sessionFile ?? 'a session kept in memory'}`);
		client.onState((state) => {
			// At once as Pi names it (views asking now get the new session), then with links resolved.
			const named = namedKeys(state);
			entry.sessionKeys = named;
			this._onDidChange.fire();
			void withRealPath(named).then((keys) => {
				if (entry.sessionKeys === named && keys.length > named.length) {
					entry.sessionKeys = keys;
					this._onDidChange.fire();
				}
			});
		});
		client.onSent(() => {
			const pi = this.pis.find((candidate) => candidate.client === client);
			if (pi) {
				this._onDidSend.fire(pi);
			}
		});
		client.onClose((why) => {
			if (this.live.get(key)?.client === client) {
				this.live.delete(key);
				this.options.log.info(`bridges: Pi ${record.pid} disconnected (${why})`);
				this._onDidChange.fire();
				void this.scan();
			}
		});
		this._onDidChange.fire();
	}

	private async stale(folder: string, record: BridgeRecord, why: string): Promise<void> {
		if (!this.options.cleanStale()) {
			this.once(`stale:${keyOf(record)}`, () => this.options.log.info(`bridges: the record of Pi ${record.pid} is stale (it ${why}); left in place (restricted mode)`));
			return;
		}
		try {
			await (this.options.removeStale ?? defaultRemove)(folder, record);
			this.options.log.info(`bridges: removed the stale record of Pi ${record.pid}, which ${why}`);
		} catch (error) {
			this.once(`stale:${keyOf(record)}`, () => this.options.log.warn(`bridges: could not remove the stale record of Pi ${record.pid}: ${errorMessage(error)}`));
		}
	}

	private watch(folder: string): void {
		if (this.watchers.has(folder) || this.stopped) {
			return;
		}
		try {
			const watcher = watch(folder, { persistent: false }, () => void this.scan());
			watcher.on('error', () => {
				watcher.close();
				this.watchers.delete(folder);
			});
			this.watchers.set(folder, watcher);
		} catch {
			// The poll still finds its records.
		}
	}

	private once(key: string, report: () => void): void {
		if (!this.reported.has(key)) {
			this.reported.add(key);
			report();
		}
	}
}

function defaultRemove(folder: string, record: BridgeRecord): Promise<void> {
	return removeRecord(folder, record.pid, record.socket);
}

/** The session file as Pi names it (absolute). */
function namedKeys(state: BridgeState): string[] {
	return state.sessionFile === undefined ? [] : [resolve(state.sessionFile)];
}

/** The same forms plus the file's real path (when it differs and exists). */
async function withRealPath(keys: readonly string[]): Promise<string[]> {
	const real = await Promise.all(keys.map((key) => realpath(key).catch(() => key)));
	return [...new Set([...keys, ...real])];
}
