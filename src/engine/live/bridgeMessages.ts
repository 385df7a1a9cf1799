/**
 * The lines the bridge and VS Code exchange on the bridge's socket: one JSON object per `\n`-ended
 * line. The client speaks first, with the record's token (`hello`); the bridge answers `welcome` or
 * closes the connection. Then the bridge pushes its state and a digest of each model request, and
 * answers calls: its state, the last request's digest, the exact text of a part of that request
 * (as `chunk` lines, then the `result`), and putting `/pruner now` or `/pruner compact` into Pi's
 * editor. Nothing else can be asked: no free text, no model or tool change, no session write.
 * Types and the parsers of both directions (each side treats the other's lines as hostile). Pure.
 */
import type { BridgeState, PrunerSubcommand, SentDigest, SentPart } from './liveTypes';
import { SENT_PARTS } from './liveTypes';
import { integerField, isPlainObject, parseObject, stringField } from './jsonFields';
import { parseBridgeState, parseSentDigest } from './stateParsers';

/** A line longer than this ends the connection (chunks are far smaller; a digest of 100,000 messages fits). */
export const MAX_LINE_CHARS = 8 * 1024 * 1024;
/** The first line (the client's hello) is short; a longer one ends the connection at once. */
export const MAX_HELLO_CHARS = 512;
/** Exact text travels in chunks of this many characters. */
export const TEXT_CHUNK_CHARS = 64 * 1024;
/** A part longer than this is not sent (the call fails, saying how large it is). */
export const MAX_PART_CHARS = 64 * 1024 * 1024;

export type ClientCall =
	| { readonly method: 'state' }
	| { readonly method: 'lastRequest' }
	| { readonly method: 'requestText'; readonly seq: number; readonly part: SentPart }
	| { readonly method: 'putPrunerCommand'; readonly command: PrunerSubcommand };

export type BridgeMethod = ClientCall['method'];

/**
 * What each call answers when it succeeds: the bridge writes it (`resultOf`), the client reads it
 * (`RESULT_READERS`). One map for both sides: a call added to `ClientCall` does not compile until it
 * has its result here and a reader below.
 */
export interface BridgeResults {
	readonly state: BridgeState;
	/** `null` before Pi's first request. */
	readonly lastRequest: SentDigest | null;
	/** Sent once the text's chunks are: their length, to check that none was lost. */
	readonly requestText: { readonly chars: number };
	/** The text put into Pi's editor. */
	readonly putPrunerCommand: { readonly text: string };
}

export type ClientMessage =
	| { readonly type: 'hello'; readonly protocol: number; readonly token: string }
	| ({ readonly type: 'call'; readonly id: number } & ClientCall);

export type BridgeMessage =
	| { readonly type: 'welcome'; readonly protocol: number; readonly state: BridgeState; readonly last: SentDigest | undefined }
	| { readonly type: 'state'; readonly state: BridgeState }
	| { readonly type: 'sent'; readonly sent: SentDigest }
	| { readonly type: 'chunk'; readonly id: number; readonly text: string }
	| { readonly type: 'result'; readonly id: number; readonly ok: true; readonly value: unknown }
	| { readonly type: 'result'; readonly id: number; readonly ok: false; readonly error: string }
	/** The bridge is closing (Pi quits, or its record moved to another session file). */
	| { readonly type: 'bye'; readonly reason: string };

const MAX_ID = 2 ** 31;

/** The bridge's reading of a client line; undefined for anything else (the bridge then closes). */
export function parseClientMessage(line: string): ClientMessage | undefined {
	const object = parseObject(line);
	if (!object) {
		return undefined;
	}
	if (object.type === 'hello') {
		const protocol = integerField(object, 'protocol', 1, 1000);
		const token = stringField(object, 'token', 128);
		return protocol === undefined || token === undefined ? undefined : { type: 'hello', protocol, token };
	}
	const id = integerField(object, 'id', 1, MAX_ID);
	if (object.type !== 'call' || id === undefined) {
		return undefined;
	}
	switch (object.method) {
		case 'state':
		case 'lastRequest':
			return { type: 'call', id, method: object.method };
		case 'requestText': {
			const seq = integerField(object, 'seq', 1);
			const part = SENT_PARTS.find((known) => known === object.part);
			return seq === undefined || part === undefined ? undefined : { type: 'call', id, method: 'requestText', seq, part };
		}
		case 'putPrunerCommand':
			return object.command === 'now' || object.command === 'compact' ? { type: 'call', id, method: 'putPrunerCommand', command: object.command } : undefined;
		default:
			return undefined;
	}
}

/** VS Code's reading of a bridge line; undefined for anything that is not exactly a message of the protocol. */
export function parseBridgeMessage(line: string): BridgeMessage | undefined {
	const object = parseObject(line);
	if (!object) {
		return undefined;
	}
	switch (object.type) {
		case 'welcome': {
			const protocol = integerField(object, 'protocol', 1, 1000);
			const state = parseBridgeState(object.state);
			const last = object.last === undefined || object.last === null ? undefined : parseSentDigest(object.last);
			const lastOk = object.last === undefined || object.last === null || last !== undefined;
			return protocol !== undefined && state && lastOk ? { type: 'welcome', protocol, state, last } : undefined;
		}
		case 'state': {
			const state = parseBridgeState(object.state);
			return state && { type: 'state', state };
		}
		case 'sent': {
			const sent = parseSentDigest(object.sent);
			return sent && { type: 'sent', sent };
		}
		case 'chunk': {
			const id = integerField(object, 'id', 1, MAX_ID);
			const text = stringField(object, 'text', TEXT_CHUNK_CHARS);
			return id === undefined || text === undefined ? undefined : { type: 'chunk', id, text };
		}
		case 'result': {
			const id = integerField(object, 'id', 1, MAX_ID);
			if (id === undefined) {
				return undefined;
			}
			if (object.ok === true) {
				return { type: 'result', id, ok: true, value: object.value };
			}
			const error = stringField(object, 'error');
			return object.ok === false && error !== undefined ? { type: 'result', id, ok: false, error } : undefined;
		}
		case 'bye': {
			const reason = stringField(object, 'reason', 512);
			return reason === undefined ? undefined : { type: 'bye', reason };
		}
		default:
			return undefined;
	}
}

/** A successful answer to `call`, its value typed by the call's method: how the bridge writes a result. */
export function resultOf<M extends BridgeMethod>(call: { readonly id: number; readonly method: M }, value: BridgeResults[M]): BridgeMessage {
	return { type: 'result', id: call.id, ok: true, value };
}

/** The line the bridge writes for `message`: one JSON object, then a line end. */
export function bridgeLine(message: BridgeMessage): string {
	return `${JSON.stringify(message)}\n`;
}

/** The line VS Code writes for `message`: one JSON object, then a line end. */
export function clientLine(message: ClientMessage): string {
	return `${JSON.stringify(message)}\n`;
}

/** How VS Code reads each call's result (a line of the bridge is hostile): undefined for anything that is not one. */
export const RESULT_READERS: { readonly [M in BridgeMethod]: (value: unknown) => BridgeResults[M] | undefined } = {
	state: (value) => parseBridgeState(value),
	lastRequest: (value) => (value === null ? null : parseSentDigest(value)),
	requestText: (value) => parseTextResult(value),
	putPrunerCommand: (value) => parsePutResult(value),
};

/** What a successful `putPrunerCommand` returns: the text put into Pi's editor. */
function parsePutResult(value: unknown): { readonly text: string } | undefined {
	if (!isPlainObject(value)) {
		return undefined;
	}
	const text = stringField(value, 'text', 64);
	return text === undefined ? undefined : { text };
}

/** What a successful `requestText` returns once its chunks are sent. */
function parseTextResult(value: unknown): { readonly chars: number } | undefined {
	if (!isPlainObject(value)) {
		return undefined;
	}
	const chars = integerField(value, 'chars', 0, MAX_PART_CHARS);
	return chars === undefined ? undefined : { chars };
}
