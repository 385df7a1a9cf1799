/**
 * The "Edited by Pi" rows of the "Pruned Calls" view (Pi 1.x): each entry a `context_edit` left out of
 * the context or sends with other content, with what the entry says and what is sent. Pure.
 */
import { contextEditNotes } from '../preview/contextEditNotes';
import { blockText, messageBlocks } from '../preview/messageBlocks';
import { bounded } from '../../base/boundedText';
import type { AppliedEdit } from '../session/contextEdits';
import type { SessionContext, SessionModel } from '../session/model';
import { toolCallIdsOf } from '../preview/previewRow';
import type { ContextEditNode } from './prunedCallsTypes';

const SENT_TEXT_CHARS = 600;

export function contextEditNode(applied: AppliedEdit, context: SessionContext, model: SessionModel): ContextEditNode {
	const [note] = contextEditNotes([applied]);
	const omitted = applied.at === undefined;
	const sent = applied.at === undefined ? undefined : context.messages[applied.at];
	const message = applied.raw[0];
	const calls = message ? toolCallIdsOf(message) : [];
	const what = message?.role === 'toolResult' ? `tool result ${message.toolName}` : message?.role ?? applied.target.type;
	return {
		kind: 'contextEdit',
		id: `edit:${applied.target.id}`,
		label: `${omitted ? 'left out' : 'edited'}: ${what}${calls.length > 0 ? ` (${calls.join(', ')})` : ''}`,
		description: `context_edit ${applied.edit.id}`,
		omitted,
		entryText: note?.entryText ?? '',
		sentText: sent === undefined ? undefined : bounded(messageBlocks(sent, SENT_TEXT_CHARS).map(blockText).join('\n'), SENT_TEXT_CHARS).text,
		line: model.lineOf(applied.target),
	};
}
