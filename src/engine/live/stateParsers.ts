/**
 * Parsers of the bridge's state and request digest as VS Code receives them: every field checked
 * for type and size, unknown fields dropped, anything malformed refused whole. Pure.
 */
import type { BridgeState, LiveModel, LiveUsage, LoadOrder, MessageDigest, PartDigest, PiCondenseLoaded, SentDigest } from './liveTypes';
import { booleanField, integerField, isPlainObject, MISSING, numberField, optional, stringField, type JsonObject } from './jsonFields';

const ORDERS: readonly LoadOrder[] = ['after-pi-condense', 'before-pi-condense', 'no-pi-condense', 'unknown'];
/** More messages than any context holds; a longer digest is refused. */
export const MAX_DIGEST_MESSAGES = 1_000_000;
const HASH = /^[A-Za-z0-9_-]{8,64}$/;

function present<T>(value: T | typeof MISSING): T | undefined {
	return value === MISSING ? undefined : value;
}

function parseModel(value: unknown): LiveModel | undefined {
	if (!isPlainObject(value)) {
		return undefined;
	}
	const provider = stringField(value, 'provider', 256);
	const id = stringField(value, 'id', 256);
	const contextWindow = optional(value, 'contextWindow', (o, k) => integerField(o, k));
	return provider === undefined || id === undefined || contextWindow === undefined ? undefined : { provider, id, contextWindow: present(contextWindow) };
}

function parseUsage(value: unknown): LiveUsage | undefined {
	if (!isPlainObject(value)) {
		return undefined;
	}
	const tokens = optional(value, 'tokens', (o, k) => integerField(o, k));
	const contextWindow = integerField(value, 'contextWindow');
	const percent = optional(value, 'percent', numberField);
	return tokens === undefined || contextWindow === undefined || percent === undefined ? undefined
		: { tokens: present(tokens) ?? null, contextWindow, percent: present(percent) ?? null };
}

function parsePiCondense(value: unknown): PiCondenseLoaded | undefined {
	if (!isPlainObject(value)) {
		return undefined;
	}
	const name = optional(value, 'name', (o, k) => stringField(o, k, 64));
	const version = optional(value, 'version', (o, k) => stringField(o, k, 64));
	const path = stringField(value, 'path');
	const command = stringField(value, 'command', 64);
	return name === undefined || version === undefined || path === undefined || command === undefined || !/^[\w:.-]+$/.test(command) ? undefined
		: { name: present(name), version: present(version), path, command };
}

/** A field that is absent (or null) or parses: `fallback` for absent, undefined for malformed. */
function nested<T>(object: JsonObject, key: string, parse: (value: unknown) => T | undefined): T | typeof MISSING | undefined {
	return object[key] === undefined || object[key] === null ? MISSING : parse(object[key]);
}

export function parseBridgeState(value: unknown): BridgeState | undefined {
	if (!isPlainObject(value)) {
		return undefined;
	}
	const pid = integerField(value, 'pid', 1);
	const piVersion = stringField(value, 'piVersion', 64);
	const mode = stringField(value, 'mode', 32);
	const cwd = stringField(value, 'cwd');
	const sessionFile = optional(value, 'sessionFile', (o, k) => stringField(o, k));
	const sessionId = stringField(value, 'sessionId', 128);
	const leafId = optional(value, 'leafId', (o, k) => stringField(o, k, 128));
	const model = nested(value, 'model', parseModel);
	const thinkingLevel = optional(value, 'thinkingLevel', (o, k) => stringField(o, k, 32));
	const busy = booleanField(value, 'busy');
	const usage = nested(value, 'usage', parseUsage);
	const piCondense = nested(value, 'piCondense', parsePiCondense);
	const order = ORDERS.find((known) => known === value.order);
	const bridgeVersion = stringField(value, 'bridgeVersion', 64);
	if (pid === undefined || piVersion === undefined || mode === undefined || cwd === undefined || sessionFile === undefined || sessionId === undefined
		|| leafId === undefined || model === undefined || thinkingLevel === undefined || busy === undefined || usage === undefined
		|| piCondense === undefined || order === undefined || bridgeVersion === undefined) {
		return undefined;
	}
	return {
		pid, piVersion, mode, cwd, sessionFile: present(sessionFile), sessionId, leafId: present(leafId) ?? null, model: present(model),
		thinkingLevel: present(thinkingLevel), busy, usage: present(usage), piCondense: present(piCondense), order, bridgeVersion,
	};
}

function parsePart(value: unknown): PartDigest | undefined {
	if (!isPlainObject(value)) {
		return undefined;
	}
	const chars = integerField(value, 'chars');
	const hash = stringField(value, 'hash', 64);
	return chars === undefined || hash === undefined || !HASH.test(hash) ? undefined : { chars, hash };
}

function parseMessageDigest(value: unknown): MessageDigest | undefined {
	if (!isPlainObject(value)) {
		return undefined;
	}
	const role = stringField(value, 'role', 64);
	const part = parsePart(value);
	return role === undefined || part === undefined ? undefined : { role, ...part };
}

export function parseSentDigest(value: unknown): SentDigest | undefined {
	if (!isPlainObject(value) || !Array.isArray(value.messages) || value.messages.length > MAX_DIGEST_MESSAGES) {
		return undefined;
	}
	const seq = integerField(value, 'seq', 1);
	const at = integerField(value, 'at');
	const sessionFile = optional(value, 'sessionFile', (o, k) => stringField(o, k));
	const leafId = optional(value, 'leafId', (o, k) => stringField(o, k, 128));
	const model = nested(value, 'model', parseModel);
	const system = nested(value, 'system', parsePart);
	const payload = nested(value, 'payload', parsePart);
	const changedAfterBridge = integerField(value, 'changedAfterBridge');
	const messages: MessageDigest[] = [];
	for (const item of value.messages as unknown[]) {
		const digest = parseMessageDigest(item);
		if (!digest) {
			return undefined;
		}
		messages.push(digest);
	}
	if (seq === undefined || at === undefined || sessionFile === undefined || leafId === undefined || model === undefined
		|| system === undefined || payload === undefined || changedAfterBridge === undefined) {
		return undefined;
	}
	return {
		seq, at, sessionFile: present(sessionFile), leafId: present(leafId) ?? null, model: present(model), messages,
		system: present(system), payload: present(payload), changedAfterBridge,
	};
}
