/**
 * Finds the row to reveal for a tree item: a `tN` ref, a `bN` block, a tool-call id or an entry
 * id. Prefers the rendered view (what the model is sent); a message that is not sent is shown in
 * the raw view. Pure; reads the messages, builds no row.
 */
import type { CondenseState } from '../condense/state/condenseState';
import type { ViewRows } from './viewRows';
import type { ViewName } from './snapshotTypes';

export interface RowLocation {
	readonly view: ViewName;
	readonly index: number;
}

export function locateTarget(target: string, rows: ViewRows, state: CondenseState): RowLocation | undefined {
	const block = rows.indexOfKey('after', `b${target}`);
	if (block !== undefined) {
		return { view: 'after', index: block };
	}
	const toolCallId = state.refs.get(target)?.record.toolCallId ?? target;
	const byCall = findCall(rows, 'after', toolCallId);
	if (byCall >= 0) {
		return { view: 'after', index: byCall };
	}
	const chain = state.chains.find((c) => c.entry.droppedToolCallIds.includes(toolCallId));
	const chainRow = chain ? rows.indexOfKey('after', `b${chain.entry.blockId}`) : undefined;
	if (chainRow !== undefined) {
		return { view: 'after', index: chainRow };
	}
	const byEntry = findEntry(rows, 'after', target);
	if (byEntry >= 0) {
		return { view: 'after', index: byEntry };
	}
	const raw = Math.max(findCall(rows, 'before', toolCallId), findEntry(rows, 'before', target));
	return raw >= 0 ? { view: 'before', index: raw } : undefined;
}

/** The tool result answering the call (the stub users look for), else the message issuing it. */
function findCall(rows: ViewRows, view: ViewName, toolCallId: string): number {
	let issuing = -1;
	for (let i = 0; i < rows.count(view); i++) {
		const message = rows.message(view, i);
		if (message?.role === 'toolResult' && message.toolCallId === toolCallId) {
			return i;
		}
		if (issuing < 0 && message?.role === 'assistant' && message.content.some((block) => block.type === 'toolCall' && block.id === toolCallId)) {
			issuing = i;
		}
	}
	return issuing;
}

function findEntry(rows: ViewRows, view: ViewName, entryId: string): number {
	for (let i = 0; i < rows.count(view); i++) {
		if (rows.entryIdAt(view, i) === entryId) {
			return i;
		}
	}
	return -1;
}
