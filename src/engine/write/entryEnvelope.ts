/**
 * Entry drafts (what the flush wants written) and the envelope Pi puts around them. Pure.
 *
 * Pi's `appendCustomEntry` / `appendCustomMessageEntry` build their objects with the keys in this
 * order: `type, customType, data | content, display, details, id, parentId, timestamp`, and write
 * `JSON.stringify(entry) + "\n"`, so `undefined` fields (`data`, `details`) are left out. We build
 * the same objects, so our lines are indistinguishable from Pi's own.
 */
import { toEntry } from '../session/parseEntry';
import type { CustomEntry, CustomMessageEntry, SessionInfoEntry, UserContent } from '../session/types';
import { newEntryId, type RandomBytes } from './entryId';
import { errorMessage } from '../../base/errorMessage';
import { Pacer, type Steps } from '../steps';

/** Extension state; never in the LLM context. */
export interface CustomEntryDraft {
	readonly type: 'custom';
	readonly customType: string;
	readonly data?: unknown;
}

/** Extension message; reaches the LLM as a user message. */
export interface CustomMessageEntryDraft {
	readonly type: 'custom_message';
	readonly customType: string;
	readonly content: string | readonly UserContent[];
	readonly display: boolean;
	readonly details?: unknown;
}

/** The session's display name (Pi's `/name`): the latest one names the session; an empty name clears it. */
export interface SessionInfoDraft {
	readonly type: 'session_info';
	readonly name: string;
}

/** What a flush writes. */
export type EntryDraft = CustomEntryDraft | CustomMessageEntryDraft;

/** What may be written to a session: a flush's drafts, or a new display name (Rename Session…). */
export type WritableDraft = EntryDraft | SessionInfoDraft;

/** The draft of a new display name, as Pi's `appendSessionInfo` takes one: line breaks made spaces, trimmed. */
export function sessionInfoDraft(name: string): SessionInfoDraft {
	return { type: 'session_info', name: name.replace(/[\r\n]+/g, ' ').trim() };
}

type WrittenEntry = CustomEntry | CustomMessageEntry | SessionInfoEntry;

/** A draft with its envelope, ready to be appended. */
export interface PreparedEntry {
	/**
	 * The entry as a reader of the file gets it (`line` parsed back: no `undefined` fields), or with
	 * `entriesAsBuilt` the envelope itself, which shares the draft's data.
	 */
	readonly entry: WrittenEntry;
	/** `JSON.stringify(envelope) + "\n"`: exactly what goes into the file. */
	readonly line: string;
}

export interface EnvelopeContext {
	/** Id of the last entry in file order (Pi's leaf on load); null for a file with no entries. */
	readonly parentId: string | null;
	/** True for ids already in the file. */
	readonly isTaken: (id: string) => boolean;
	readonly randomBytes: RandomBytes;
	/** Returns the current time (each entry asks once, as Pi's `new Date().toISOString()` does). */
	readonly now: () => Date;
	/** Keep the envelopes as built rather than as read back (nothing more to hold when no model is built from them). */
	readonly entriesAsBuilt?: boolean;
}

/** Thrown for a draft Pi would not read back as the entry it was meant to be. */
export class InvalidDraftError extends Error {
	constructor(readonly index: number, reason: string) {
		super(`entry draft ${index + 1}: ${reason}`);
		this.name = 'InvalidDraftError';
	}
}

/**
 * Envelopes `drafts` as a chain: the first one's parent is `context.parentId`, each next one's the
 * previous draft. Ids are fresh 8-hex ids unused in the file and in this batch. In steps: a first
 * flush of a large session writes tens of thousands of entries, each serialized and read back.
 */
export function* prepareEntriesSteps(drafts: readonly WritableDraft[], context: EnvelopeContext): Steps<PreparedEntry[]> {
	const generated = new Set<string>();
	const isTaken = (id: string): boolean => generated.has(id) || context.isTaken(id);
	const prepared: PreparedEntry[] = [];
	const pacer = new Pacer();
	let parentId = context.parentId;
	for (let index = 0; index < drafts.length; index++) {
		const draft = drafts[index] as WritableDraft;
		const id = newEntryId(isTaken, context.randomBytes);
		generated.add(id);
		const built = envelope(draft, id, parentId, context.now().toISOString());
		const entry = serialize(built, draft, index);
		prepared.push(context.entriesAsBuilt === true ? { entry: built, line: entry.line } : entry);
		parentId = id;
		if (pacer.due(entry.line.length)) {
			yield;
		}
	}
	return prepared;
}

function envelope(draft: WritableDraft, id: string, parentId: string | null, timestamp: string): WrittenEntry {
	// Pi's appendSessionInfo builds `type, id, parentId, timestamp, name` in this order.
	if (draft.type === 'session_info') {
		return { type: 'session_info', id, parentId, timestamp, name: draft.name };
	}
	if (draft.type === 'custom') {
		return { type: 'custom', customType: draft.customType, data: draft.data, id, parentId, timestamp };
	}
	return {
		type: 'custom_message',
		customType: draft.customType,
		content: draft.content,
		display: draft.display,
		details: draft.details,
		id,
		parentId,
		timestamp,
	};
}

/**
 * Serializes and reads the line back as Pi's loader would, so nothing unreadable is ever written.
 * The entry read back is kept: it is what the file holds, so the model after the write is built
 * from it without parsing the written lines again.
 */
function serialize(entry: WrittenEntry, draft: WritableDraft, index: number): PreparedEntry {
	const type: unknown = (draft as { type?: unknown }).type;
	if (type !== 'custom' && type !== 'custom_message' && type !== 'session_info') {
		throw new InvalidDraftError(index, `type ${JSON.stringify(type)} is not "custom", "custom_message" or "session_info"`);
	}
	if (draft.type === 'session_info' && typeof draft.name !== 'string') {
		throw new InvalidDraftError(index, 'name must be a string');
	}
	if (draft.type !== 'session_info' && (typeof draft.customType !== 'string' || draft.customType === '')) {
		throw new InvalidDraftError(index, 'customType must be a non-empty string');
	}
	if (draft.type === 'custom_message' && typeof draft.display !== 'boolean') {
		throw new InvalidDraftError(index, 'display must be true or false');
	}
	let json: string;
	try {
		json = JSON.stringify(entry);
	} catch (error) {
		throw new InvalidDraftError(index, `not serializable as JSON (${errorMessage(error)})`);
	}
	const readBack = toEntry(JSON.parse(json));
	if (readBack.entry === undefined) {
		throw new InvalidDraftError(index, `Pi would not read it back (${readBack.error})`);
	}
	if (readBack.entry.type !== type || readBack.warning !== undefined) {
		throw new InvalidDraftError(index, `Pi would not read it back as a ${type} entry (${readBack.warning ?? `read as ${readBack.entry.type}`})`);
	}
	return { entry: readBack.entry, line: `${json}\n` };
}
