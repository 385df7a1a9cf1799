/**
 * Lookups in a rebuilt state, with the rules of the release that rebuilt it. Pure.
 *
 * - "Summarized" is strict: the exact key is indexed or is a dedup alias.
 * - Resolving an id (recovery, and the record behind a stub): indexed key, then dedup alias (to its
 *   original's key), then `tN`; from 2.6.0 also a bare id with exactly one key.
 * - Which tool results phase 1 stubs: up to 2.5.0 any result whose bare id is summarized; from
 *   2.6.0 a result whose own key (`id@timestamp`) is summarized, else one whose bare id is a
 *   legacy-only record (indexed under the bare id, and the only key of that id).
 */
import { numericTimestamp, occurrenceKey } from '../occurrence';
import type { ToolResultMessage } from '../../session/types';
import type { AliasOccurrence, CondenseState, RecordOccurrence, ResultCoverage } from './condenseState';

export function isSummarized(state: CondenseState, key: string): boolean {
	return state.records.has(key) || state.aliases.has(key);
}

/** The key an id, alias or `tN` resolves to (not necessarily indexed), or undefined. */
export function resolveKey(state: CondenseState, input: string): string | undefined {
	if (state.records.has(input)) {
		return input;
	}
	const alias = state.aliases.get(input);
	if (alias) {
		return alias.originalKey;
	}
	const byRef = state.refKeys.get(input);
	if (byRef !== undefined) {
		return byRef;
	}
	const keys = state.keying === 'occurrence' ? state.keysByBareId.get(input) : undefined;
	return keys?.length === 1 ? keys[0] : undefined;
}

/** The record an id, alias or `tN` resolves to (pi-condense's `getRecord`). */
export function resolveRecord(state: CondenseState, input: string): RecordOccurrence | undefined {
	const key = resolveKey(state, input);
	return key === undefined ? undefined : state.records.get(key);
}

/** The key a tool result message has in this state: its occurrence key from 2.6.0, else its bare id. */
export function ownKey(state: CondenseState, message: ToolResultMessage): string {
	return state.keying === 'occurrence' ? occurrenceKey(message.toolCallId, numericTimestamp(message.timestamp)) : message.toolCallId;
}

/** Whether a tool result is summarized or aliased under its own key, and by what (the capture's test). */
export function coverageOf(state: CondenseState, message: ToolResultMessage): ResultCoverage | undefined {
	return coverageByKey(state, ownKey(state, message));
}

function coverageByKey(state: CondenseState, key: string): ResultCoverage | undefined {
	const occurrence = state.records.get(key);
	if (occurrence) {
		return { kind: 'record', occurrence };
	}
	const alias = state.aliases.get(key);
	return alias ? { kind: 'alias', alias } : undefined;
}

/** What phase 1 replaces a tool result with, when the release replaces it. */
export interface StubTarget {
	/** The result's own key (what the recovery grace is keyed by from 2.6.0). */
	readonly ownKey: string;
	/** The key the record was found by: the own key, or a legacy-only bare id. */
	readonly lookupKey: string;
	/** The record behind the stub (an alias's original); undefined when it is not indexed. */
	readonly occurrence: RecordOccurrence | undefined;
	/** Set when the lookup key is a dedup alias rather than an indexed record. */
	readonly alias: AliasOccurrence | undefined;
	/** The ref the stub names: the lookup key's `tN`, else the result's bare id. */
	readonly ref: string;
}

export function stubTarget(state: CondenseState, message: ToolResultMessage): StubTarget | undefined {
	const key = ownKey(state, message);
	const lookupKey = isSummarized(state, key) ? key : legacyOnly(state, message.toolCallId) ? message.toolCallId : undefined;
	if (lookupKey === undefined) {
		return undefined;
	}
	return {
		ownKey: key,
		lookupKey,
		occurrence: resolveRecord(state, lookupKey),
		alias: state.records.has(lookupKey) ? undefined : state.aliases.get(lookupKey),
		ref: state.shortRefs.get(lookupKey) ?? message.toolCallId,
	};
}

/** 2.6.0+: a record filed under the bare id, and the only key minted for that id. */
function legacyOnly(state: CondenseState, toolCallId: string): boolean {
	return state.keying === 'occurrence' && state.records.has(toolCallId) && state.keysByBareId.get(toolCallId)?.length === 1;
}
