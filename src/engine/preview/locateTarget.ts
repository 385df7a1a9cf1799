/**
 * Finds the row to reveal for a tree item: a `tN` ref, a `bN` block, a tool-call id or an entry
 * id. Prefers the rendered view (what the model is sent); a message that is not sent is shown in
 * the raw view. Pure.
 */
import type { CondenseState } from '../condense/state/condenseState';
import type { PreviewRow } from './types';
import type { ViewName } from './snapshotTypes';

export interface RowLocation {
	readonly view: ViewName;
	readonly index: number;
}

export function locateTarget(
	target: string,
	rows: Readonly<Record<ViewName, readonly PreviewRow[]>>,
	state: CondenseState,
): RowLocation | undefined {
	const block = rows.after.findIndex((row) => row.key === `b${target}`);
	if (block >= 0) {
		return { view: 'after', index: block };
	}
	const toolCallId = state.refs.get(target)?.record.toolCallId ?? target;
	const byCall = findCall(rows.after, toolCallId);
	if (byCall >= 0) {
		return { view: 'after', index: byCall };
	}
	const chain = state.chains.find((c) => c.entry.droppedToolCallIds.includes(toolCallId));
	const chainRow = chain ? rows.after.findIndex((row) => row.key === `b${chain.entry.blockId}`) : -1;
	if (chainRow >= 0) {
		return { view: 'after', index: chainRow };
	}
	const byEntry = rows.after.findIndex((row) => row.entryId === target);
	if (byEntry >= 0) {
		return { view: 'after', index: byEntry };
	}
	const raw = Math.max(findCall(rows.before, toolCallId), rows.before.findIndex((row) => row.entryId === target));
	return raw >= 0 ? { view: 'before', index: raw } : undefined;
}

/** The tool result answering the call (the stub users look for), else the message issuing it. */
function findCall(rows: readonly PreviewRow[], toolCallId: string): number {
	const result = rows.findIndex((row) => row.kind === 'toolResult' && row.toolCallIds.includes(toolCallId));
	return result >= 0 ? result : rows.findIndex((row) => row.toolCallIds.includes(toolCallId));
}
