/**
 * The last requests each live session's Pi made, kept in memory: when a bridge says its Pi sent a
 * request, its system messages and messages are fetched (one request after another, in order) and
 * written for reading (`writtenRequestSteps`, in slices), and the last `keep()` of each session are
 * kept, for Open request and Compare with Previous Request. A message repeated from one request to the
 * next (nearly all of them) is held once. A session no running Pi holds any more is forgotten, and
 * nothing is written anywhere. With `keep()` 0 nothing is fetched unasked.
 */
import { resolve } from 'node:path';
import { type RequestHead, type SentDigest, type WrittenMessage, type WrittenRequest, writtenRequestSteps } from '../../engine/live';
import { errorMessage } from '../../base/errorMessage';
import { Emitter } from '../../base/emitter';
import type { SerialQueue, WorkScope } from '../../work';
import type { LivePi } from './liveBridges';

/** A request kept: what the document's head says, and its written messages. */
export interface KeptRequest extends WrittenRequest {
	readonly head: RequestHead;
}

export interface RequestHistoryOptions {
	/** Its own scope: closing it stops a fetch under way. */
	readonly work: WorkScope;
	readonly bridges: {
		readonly onDidSend: (listener: (pi: LivePi) => void) => { dispose(): void };
		readonly onDidChange: (listener: () => void) => { dispose(): void };
		forSession(path: string): LivePi | undefined;
	};
	/** How many requests to keep per session (the setting, read when a request comes). */
	readonly keep: () => number;
	readonly log: { debug(message: string): void; warn(message: string): void };
}

export class RequestHistory {
	private readonly _onDidChange = new Emitter<string>();
	/** The kept requests of a session (its resolved path) changed. */
	readonly onDidChange = this._onDidChange.event;
	private readonly sessions = new Map<string, KeptRequest[]>();
	private readonly fetches: SerialQueue;

	constructor(private readonly options: RequestHistoryOptions) {
		this.fetches = options.work.serialQueue();
		const sends = options.bridges.onDidSend((pi) => {
			const sent = pi.last;
			if (options.keep() > 0 && sent) {
				void this.fetches.run((signal) => this.keep(pi, sent, signal)).catch((error: unknown) => options.log.debug(`requests: ${errorMessage(error)}`));
			}
		});
		const changes = options.bridges.onDidChange(() => this.forgetGone());
		options.work.onClose(() => {
			sends.dispose();
			changes.dispose();
			this.sessions.clear();
			this._onDidChange.dispose();
		});
	}

	/** The kept requests of the session at `path`, oldest first. */
	requests(path: string | undefined): readonly KeptRequest[] {
		return path === undefined ? [] : this.sessions.get(resolve(path)) ?? [];
	}

	/** Request `seq` of this Pi: kept, or fetched now (the bridge serves its last few); throws with why not. */
	async request(pi: LivePi, seq: number, signal?: AbortSignal): Promise<KeptRequest> {
		const kept = pi.state.sessionFile === undefined ? undefined : this.requests(pi.state.sessionFile).find((request) => request.head.seq === seq && request.head.pid === pi.state.pid);
		return kept ?? this.fetch(pi, pi.last?.seq === seq ? pi.last : { seq }, signal);
	}

	/** Trims every session to `keep()` (the setting changed). */
	trim(): void {
		for (const [path, requests] of this.sessions) {
			if (requests.length > this.options.keep()) {
				this.store(path, requests.slice(Math.max(0, requests.length - this.options.keep())));
			}
		}
	}

	private async keep(pi: LivePi, sent: SentDigest, signal: AbortSignal): Promise<void> {
		const sessionFile = sent.sessionFile;
		if (sessionFile === undefined || pi.client.isClosed) {
			return;
		}
		const path = resolve(sessionFile);
		const earlier = this.sessions.get(path) ?? [];
		if (earlier.some((request) => request.head.seq === sent.seq && request.head.pid === pi.state.pid)) {
			return;
		}
		const request = await this.fetch(pi, sent, signal);
		// Only this Pi's: another Pi resuming the session counts its requests from 1 again.
		const kept = [...(this.sessions.get(path) ?? []), request].filter((other) => other.head.pid === pi.state.pid);
		this.store(path, kept.slice(Math.max(0, kept.length - this.options.keep())));
	}

	/** Request `sent.seq` fetched and written (`sent` the digest, when known, for the head). */
	private async fetch(pi: LivePi, sent: SentDigest | { readonly seq: number }, signal?: AbortSignal): Promise<KeptRequest> {
		const { seq } = sent;
		const digest = 'at' in sent ? sent : undefined;
		const messages = await pi.client.requestText(seq, 'messages');
		const system = await pi.client.requestText(seq, 'system').catch((error: unknown) => {
			this.options.log.debug(`requests: no system messages for request ${seq} of Pi ${pi.state.pid}: ${errorMessage(error)}`);
			return undefined;
		});
		const written = await this.options.work.sliced(writtenRequestSteps(system, messages), signal);
		const model = digest?.model ?? pi.state.model;
		return {
			...written,
			head: {
				seq, at: digest?.at ?? Date.now(), pid: pi.state.pid, piVersion: pi.state.piVersion,
				model: model && `${model.provider}/${model.id}`, sessionFile: digest?.sessionFile ?? pi.state.sessionFile,
			},
		};
	}

	/** Keeps `requests` for `path`, each message text held once across them. */
	private store(path: string, requests: KeptRequest[]): void {
		const texts = new Map<string, WrittenMessage>();
		const shared = requests.map((request) => ({
			...request,
			messages: request.messages.map((message) => {
				const held = texts.get(message.text);
				if (held) {
					return held;
				}
				texts.set(message.text, message);
				return message;
			}),
		}));
		this.sessions.set(path, shared);
		this._onDidChange.fire(path);
	}

	private forgetGone(): void {
		for (const path of [...this.sessions.keys()]) {
			if (!this.options.bridges.forSession(path)) {
				this.sessions.delete(path);
				this._onDidChange.fire(path);
			}
		}
	}
}
