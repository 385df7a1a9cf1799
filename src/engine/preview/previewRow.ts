/**
 * One row of a view: a message with its blocks (bounded), badges, sizes and its counterpart in the
 * other view; and the badges a row gets from where its message went. Pure.
 */
import { charsToTokens } from '../condense/measure/compactFormat';
import { isSummaryMessage } from '../condense/occurrence';
import { syntheticBlockId } from '../condense/phases/syntheticChain';
import type { ProtectionCheck } from '../condense/protection/protectionRules';
import type { CondenseState } from '../condense/state/condenseState';
import { CUSTOM_TYPE_SUMMARY } from '../condense/types';
import type { AppliedEdit } from '../session/contextEdits';
import type { ContextMessage } from '../session/types';
import type { Alignment } from './alignContexts';
import type { ViewName } from './snapshotTypes';
import { isCut } from '../../base/boundedText';
import { messageBlocks } from './messageBlocks';
import type { MessageChanges } from './messageChanges';
import type { ArgsText } from './argsText';
import type { PreviewRow, RowBadge, RowKind } from './types';

/** Characters of each block text and number of blocks a row carries before it is expanded. */
export interface RowBounds {
	readonly blockChars: number;
	readonly blocks: number;
}

export const DEFAULT_ROW_BOUNDS: RowBounds = { blockChars: 400, blocks: 6 };

export interface RowInputs {
	readonly raw: readonly ContextMessage[];
	readonly rendered: readonly ContextMessage[];
	readonly alignment: Alignment;
	readonly state: CondenseState;
	readonly isProtected: ProtectionCheck;
	readonly entryIds: readonly (string | undefined)[];
	/** Pi 1.x: the messages Pi sends edited, by raw index. */
	readonly editedAt?: ReadonlyMap<number, AppliedEdit>;
	/** Block ids of chains that only the what-if simulation compresses. */
	readonly simulatedBlocks: ReadonlySet<string>;
	/** Serialized size of each message of both views, by index (measured once per preview). */
	readonly sizes: { readonly [view in ViewName]: Uint32Array };
	readonly argsText?: ArgsText;
	readonly bounds?: RowBounds;
}

export function previewRow(
	message: ContextMessage, chars: number, key: string, inputs: RowInputs, badges: readonly RowBadge[],
	change: MessageChanges, counterpart: number | undefined, entryId: string | undefined,
): PreviewRow {
	const bounds = inputs.bounds ?? DEFAULT_ROW_BOUNDS;
	const all = messageBlocks(message, bounds.blockChars, inputs.argsText);
	const blocks = all.length > bounds.blocks ? all.slice(0, bounds.blocks) : all;
	const kind = rowKind(message);
	const summaryBadge: RowBadge[] = kind === 'summary' ? [{ kind: 'summary', label: 'summary', detail: 'pi-condense summary of pruned tool calls.' }] : [];
	return {
		key,
		kind,
		title: rowTitle(message, kind),
		...(entryId !== undefined ? { entryId } : {}),
		timestamp: message.timestamp,
		chars,
		tokens: charsToTokens(chars),
		blocks,
		hiddenBlocks: all.length - blocks.length,
		truncated: all.length > blocks.length || blocks.some((block) => block.kind !== 'image' && isCut(block.text)),
		badges: [...summaryBadge, ...badges],
		...(change.stub ? { stub: change.stub } : {}),
		...(change.edited ? { edited: change.edited } : {}),
		toolCallIds: toolCallIdsOf(message),
		...(counterpart !== undefined ? { counterpart } : {}),
	};
}

function rowKind(message: ContextMessage): RowKind {
	if (syntheticBlockId(message) !== undefined) {
		return 'chain';
	}
	return isSummaryMessage(message, CUSTOM_TYPE_SUMMARY) ? 'summary' : message.role;
}

function rowTitle(message: ContextMessage, kind: RowKind): string {
	switch (message.role) {
		case 'system': return systemTitle(message.sections, message.toolsAdded, message.toolsRemoved);
		case 'toolResult': return message.toolName;
		case 'custom': return message.customType;
		case 'assistant': return message.model;
		// The role already says "Compressed chain": the title is only its block.
		case 'user': return kind === 'chain' ? syntheticBlockId(message) ?? '' : '';
		case 'bashExecution': return message.command.split('\n', 1)[0] ?? '';
		default: return '';
	}
}

/** `4 sections · +5 tools`: what a system message sets. */
function systemTitle(sections: object | undefined, added: readonly unknown[] | undefined, removed: readonly unknown[] | undefined): string {
	const count = (n: number, what: string): string => `${n} ${what}${n === 1 ? '' : 's'}`;
	const parts = [sections ? count(Object.keys(sections).length, 'section') : undefined, added?.length ? `+${count(added.length, 'tool')}` : undefined, removed?.length ? `−${count(removed.length, 'tool')}` : undefined];
	return parts.filter((part) => part !== undefined).join(' · ');
}

export function toolCallIdsOf(message: ContextMessage): string[] {
	if (message.role === 'toolResult') {
		return [message.toolCallId];
	}
	return message.role === 'assistant' ? message.content.flatMap((block) => block.type === 'toolCall' ? [block.id] : []) : [];
}

/** `calls`: the tool calls the chain dropped (0 for a block id the state does not hold). */
export function chainBadges(blockId: string, calls: number, simulatedBlocks: ReadonlySet<string>): RowBadge[] {
	const badges: RowBadge[] = [{ kind: 'chain', label: `${calls} call${calls === 1 ? '' : 's'} dropped`, detail: `A closed chain compressed into one block (${blockId}): ${calls} tool call(s) dropped, recoverable by their refs.` }];
	if (simulatedBlocks.has(blockId)) {
		badges.push({ kind: 'simulated', label: 'what-if', detail: 'Not in the session yet: the next flush would compress this chain under the changed rolling window. Its body here is the covering summaries joined (pi-condense\'s fallback when it does not fuse them).' });
	}
	return badges;
}

export function droppedBadge(message: ContextMessage, chainOfCall: ReadonlyMap<string, string>): RowBadge {
	if (message.role === 'system') {
		return { kind: 'folded', label: 'folded in', detail: 'Not sent here: pi-condense changed the conversation, so Pi replays every system message into the leading one, which carries this one\'s text, sections and tools.' };
	}
	const blockId = toolCallIdsOf(message).map((id) => chainOfCall.get(id)).find((id) => id !== undefined);
	if (blockId !== undefined) {
		return { kind: 'dropped', label: `dropped → ${blockId}`, detail: `Not sent: part of the chain compressed into ${blockId}.` };
	}
	if (isSummaryMessage(message, CUSTOM_TYPE_SUMMARY)) {
		return { kind: 'dropped', label: 'hidden', detail: 'Not sent: the calls it summarizes are inside a compressed chain.' };
	}
	return { kind: 'dropped', label: 'not sent', detail: 'Not sent: removed by the transform (orphan check).' };
}
