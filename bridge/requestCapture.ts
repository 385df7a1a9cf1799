/**
 * Keeps the last model request as Pi made it: the messages the bridge's `context` handler got (what
 * pi-condense, loaded earlier, returned), the system messages Pi put ahead of them, and the provider
 * payload. Only references are kept when the request happens (the cost to Pi is a few pointer
 * copies); digests and exact text are computed afterwards, in slices, and only when VS Code is
 * listening or asks. Nothing here changes what Pi sends.
 */
import { jsonPiecesSteps, type LiveModel, type SentDigest, type SentPart } from '../src/engine/live';
import type { Steps } from '../src/engine/steps';
import { messageDigestsSteps, partDigestSteps } from '../src/node/bridge/messageDigest';

/** What Pi said about the session when the request was made. */
export interface RequestFacts {
	readonly sessionFile: string | undefined;
	readonly leafId: string | null;
	readonly model: LiveModel | undefined;
	/** `ctx.getSystemPrompt()`: used when this Pi has no `context_with_system` event. */
	readonly systemPrompt: string | undefined;
}

interface Captured extends RequestFacts {
	readonly seq: number;
	readonly at: number;
	readonly messages: readonly unknown[];
	system: readonly unknown[] | undefined;
	payload: unknown;
	changedAfterBridge: number;
	/** The digest, once computed. */
	digest: SentDigest | undefined;
}

/**
 * Requests whose text VS Code may still ask for: the last and the few before it, so that fetching
 * request k does not fail because Pi started request k+1 meanwhile (references only: Pi holds the
 * same messages anyway).
 */
export const RECENT_REQUESTS = 4;

const roleOf = (message: unknown): unknown => (typeof message === 'object' && message !== null ? (message as { role?: unknown }).role : undefined);

export class RequestCapture {
	private seq = 0;
	private last: Captured | undefined;
	/** The last `RECENT_REQUESTS` requests, oldest first (the last among them). */
	private readonly recent: Captured[] = [];

	/** The `context` event: a new request starts. */
	onContext(messages: readonly unknown[], facts: RequestFacts, now = Date.now()): void {
		this.last = { ...facts, seq: ++this.seq, at: now, messages, system: undefined, payload: undefined, changedAfterBridge: 0, digest: undefined };
		this.recent.push(this.last);
		if (this.recent.length > RECENT_REQUESTS) {
			this.recent.shift();
		}
	}

	/**
	 * `context_with_system`: every `context` handler has run. A message that is not the very object
	 * the bridge was handed was changed by an extension loaded after it.
	 */
	onContextWithSystem(messages: readonly unknown[]): void {
		const last = this.last;
		if (!last || last.system !== undefined) {
			return;
		}
		const conversation = messages.filter((message) => roleOf(message) !== 'system');
		let changed = Math.abs(conversation.length - last.messages.length);
		for (let i = 0; i < Math.min(conversation.length, last.messages.length); i++) {
			if (conversation[i] !== last.messages[i]) {
				changed++;
			}
		}
		last.changedAfterBridge = changed;
		last.system = messages.filter((message) => roleOf(message) === 'system');
	}

	/** `before_provider_request`: the request is complete. Returns its number. */
	onPayload(payload: unknown): number | undefined {
		if (this.last && this.last.payload === undefined) {
			this.last.payload = payload;
		}
		return this.last?.seq;
	}

	get lastSeq(): number | undefined {
		return this.last?.seq;
	}

	/** The last request's digest, computed once (in steps). */
	*digestSteps(): Steps<SentDigest | undefined> {
		const last = this.last;
		if (!last) {
			return undefined;
		}
		if (last.digest) {
			return last.digest;
		}
		const messages = yield* messageDigestsSteps(last.messages);
		const system = last.system ?? last.systemPrompt;
		const digest: SentDigest = {
			seq: last.seq, at: last.at, sessionFile: last.sessionFile, leafId: last.leafId, model: last.model, messages,
			system: system === undefined ? undefined : yield* partDigestSteps(system, { depth: 1 }),
			payload: last.payload === undefined ? undefined : yield* partDigestSteps(last.payload, { depth: 3 }),
			changedAfterBridge: last.changedAfterBridge,
		};
		// A newer request may have started meanwhile: the digest still belongs to the one it was made for.
		last.digest = digest;
		return digest;
	}

	/**
	 * The exact JSON of a part of request `seq` (as `JSON.stringify` writes what Pi held), in pieces;
	 * undefined when that request is no longer one of the recent ones or lacks the part.
	 */
	textSteps(seq: number, part: SentPart, emit: (piece: string) => void): Steps<boolean> | undefined {
		const last = this.recent.find((request) => request.seq === seq);
		if (!last) {
			return undefined;
		}
		const value = part === 'messages' ? last.messages : part === 'system' ? last.system ?? last.systemPrompt : last.payload;
		if (value === undefined) {
			return undefined;
		}
		return (function* () {
			yield* jsonPiecesSteps(value, emit, { depth: part === 'payload' ? 3 : 1 });
			return true;
		})();
	}
}
