/**
 * The refs the page can hover and open: every `tN` of the state, the raw ids that stubs name when
 * they have no `tN`, and the compressed blocks `bN`. Pure.
 */
import type { CondenseState } from '../condense/state/condenseState';
import type { RefInfo } from './snapshotTypes';
import type { PreviewRow } from './types';

export function refIndex(state: CondenseState, rows: readonly PreviewRow[]): RefInfo[] {
	const refs = new Map<string, RefInfo>();
	for (const [ref, occurrence] of state.refs) {
		refs.set(ref, { ref, kind: 'tool', toolName: occurrence.record.toolName, chars: occurrence.record.spillBytes ?? occurrence.record.resultText.length });
	}
	for (const row of rows) {
		if (row.stub && !refs.has(row.stub.ref)) {
			refs.set(row.stub.ref, { ref: row.stub.ref, kind: 'tool', toolName: row.stub.toolName, chars: row.stub.originalChars });
		}
	}
	for (const chain of state.chains) {
		refs.set(chain.entry.blockId, { ref: chain.entry.blockId, kind: 'block', toolCallIds: chain.entry.droppedToolCallIds });
	}
	return [...refs.values()];
}
