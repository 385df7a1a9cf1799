/**
 * What the transform did to one raw message, as badges and (for a stub) what the stub replaced.
 * Pure. The same badges mark the message in both views; the before view adds `dropped` for a
 * message that is not sent at all.
 */
import { charsToTokens } from '../condense/measure/compactFormat';
import type { ProtectionCheck } from '../condense/protection/protectionRules';
import type { CondenseState } from '../condense/state/condenseState';
import { stubTarget } from '../condense/state/indexLookups';
import type { ContextMessage, AssistantMessage, ToolResultMessage, UserContent } from '../session/types';
import { bounded } from '../../base/boundedText';
import type { EditedOrigin, RowBadge, StubOrigin } from './types';

const STUB_HEAD_CHARS = 600;

export interface MessageChanges {
	readonly badges: readonly RowBadge[];
	readonly stub?: StubOrigin;
	/** Pi 1.x: the message is sent with the content a `context_edit` gave it. */
	readonly edited?: EditedOrigin;
}

export interface ChangeContext {
	readonly state: CondenseState;
	readonly isProtected: ProtectionCheck;
	/** Arguments of the call a raw tool result answers. */
	readonly argsOf: (rawIndex: number) => unknown;
	/** Serialized size of each raw message, by index. */
	readonly rawSizes: Uint32Array;
}

const NONE: MessageChanges = { badges: [] };

/** Badges for a raw message and what it became (`undefined`: not sent). */
export function messageChanges(raw: ContextMessage, rawIndex: number, rendered: ContextMessage | undefined, context: ChangeContext): MessageChanges {
	if (raw.role === 'toolResult') {
		return resultChanges(raw, rawIndex, rendered, context);
	}
	if (raw.role === 'assistant' && rendered?.role === 'assistant' && rendered !== raw) {
		return { badges: assistantBadges(raw, rendered) };
	}
	if (raw.role === 'system' && rendered?.role === 'system' && rendered !== raw) {
		return { badges: [REPLAYED] };
	}
	return NONE;
}

const REPLAYED: RowBadge = {
	kind: 'replayed',
	label: 'replayed',
	detail: 'pi-condense changed the conversation, so Pi sends one leading system message: every system message of the context replayed into it (texts joined, sections and tools as the last change left them).',
};

/** The badge and origin of a message Pi sends edited (Pi 1.x `context_edit`), added to its other changes. */
export function withEdit(changes: MessageChanges, edited: EditedOrigin | undefined): MessageChanges {
	if (edited === undefined) {
		return changes;
	}
	const badge: RowBadge = { kind: 'edited', label: 'edited', detail: `Pi sends this message with the content context_edit ${edited.editId} gave it; the session entry still says what is shown below.` };
	return { ...changes, badges: [badge, ...changes.badges], edited };
}

function resultChanges(raw: ToolResultMessage, rawIndex: number, rendered: ContextMessage | undefined, context: ChangeContext): MessageChanges {
	const badges: RowBadge[] = [];
	if (raw.isError) {
		badges.push({ kind: 'error', label: 'error', detail: 'The tool reported an error.' });
	}
	// The same lookup the stub phase made, so the explanation matches the stub.
	const target = stubTarget(context.state, raw);
	const stubbed = rendered !== undefined && rendered !== raw;
	if (!stubbed) {
		if (context.isProtected(raw.toolName, context.argsOf(rawIndex))) {
			const why = target ? 'Summarized earlier, but protected now: sent verbatim.' : 'Protected tool or path: never summarized.';
			badges.push({ kind: 'protected', label: 'protected', detail: why });
		}
		return { badges };
	}
	const record = target?.occurrence?.record;
	const ref = stubRef(target, raw);
	const originalChars = context.rawSizes[rawIndex] as number;
	const alias = target?.alias;
	const stubKind = alias ? 'alias' : record?.spillPath ? 'spilled' : 'summarized';
	const stub: StubOrigin = {
		ref,
		toolCallId: raw.toolCallId,
		toolName: raw.toolName,
		kind: stubKind,
		...(alias ? { aliasOf: alias.originalToolCallId } : {}),
		originalChars,
		originalTokens: charsToTokens(originalChars),
		head: contentHead(raw.content, STUB_HEAD_CHARS),
		...(record?.spillBytes !== undefined ? { spillBytes: record.spillBytes } : {}),
	};
	badges.push(stubBadge(stub));
	return { badges, stub };
}

/** The ref a stub names: its `tN`, else the raw tool-call id. */
export function stubRef(target: ReturnType<typeof stubTarget>, raw: ToolResultMessage): string {
	return target?.ref ?? raw.toolCallId;
}

/**
 * The first `max` characters of the content's text (its text parts joined by newlines, as
 * pi-condense reads a result), joining no more of a multi-megabyte output than the head needs.
 */
function contentHead(content: string | readonly UserContent[], max: number): string {
	if (typeof content === 'string') {
		return bounded(content, max).text;
	}
	let head = '';
	let first = true;
	for (const part of content) {
		if (part.type !== 'text') {
			continue;
		}
		head += first ? part.text : `\n${part.text}`;
		first = false;
		if (head.length > max) {
			break;
		}
	}
	return bounded(head, max).text;
}

function stubBadge(stub: StubOrigin): RowBadge {
	switch (stub.kind) {
		case 'alias':
			return { kind: 'alias', label: `alias → ${stub.ref}`, detail: `Same output as ${stub.aliasOf ?? stub.ref}: replaced by a stub naming the original.` };
		case 'spilled':
			return { kind: 'spilled', label: `spilled ${stub.ref}`, detail: `Oversized output spilled to a file (${stub.spillBytes ?? '?'} bytes); the stub keeps its head.` };
		case 'summarized':
			return { kind: 'stub', label: `stub ${stub.ref}`, detail: `Summarized: the raw output (${stub.originalTokens} tokens) is recoverable as ${stub.ref}.` };
	}
}

function assistantBadges(raw: AssistantMessage, rendered: AssistantMessage): RowBadge[] {
	const badges: RowBadge[] = [];
	const purgedBefore = new Set(raw.content.flatMap((block) => block.type === 'toolCall' && '_purged' in block.arguments ? [block.id] : []));
	const purged = rendered.content.filter((block) => block.type === 'toolCall' && '_purged' in block.arguments && !purgedBefore.has(block.id)).length;
	if (purged > 0) {
		badges.push({ kind: 'purgedArgs', label: purged === 1 ? 'args purged' : `${purged} args purged`, detail: 'Arguments of a failed call replaced by a size marker after the cooldown.' });
	}
	const thinkingBefore = raw.content.filter((block) => block.type === 'thinking').length;
	const thinkingAfter = rendered.content.filter((block) => block.type === 'thinking').length;
	if (thinkingAfter < thinkingBefore) {
		badges.push({ kind: 'thinkingStripped', label: 'thinking stripped', detail: `${thinkingBefore} thinking block(s) removed (signatures included).` });
	}
	return badges;
}
