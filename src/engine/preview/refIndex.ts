/**
 * The refs the page can hover and open: every `tN` of the state, the raw ids that stubs name when
 * they have no `tN`, and the compressed blocks `bN`. Pure.
 */
import type { CondenseState } from '../condense/state/condenseState';
import { stubTarget } from '../condense/state/indexLookups';
import type { ContextMessage } from '../session/types';
import type { Alignment } from './alignContexts';
import { stubRef } from './messageChanges';
import type { RefInfo } from './snapshotTypes';
import { paced, type Steps } from '../steps';

export interface RefSources {
	readonly state: CondenseState;
	readonly raw: readonly ContextMessage[];
	readonly rendered: readonly ContextMessage[];
	readonly alignment: Alignment;
	/** Serialized size of each raw message, by index. */
	readonly rawSizes: Uint32Array;
}

export function* refIndexSteps({ state, raw, rendered, alignment, rawSizes }: RefSources): Steps<RefInfo[]> {
	const refs = new Map<string, RefInfo>();
	for (const [ref, occurrence] of state.refs) {
		refs.set(ref, { ref, kind: 'tool', toolName: occurrence.record.toolName, chars: occurrence.record.spillBytes ?? occurrence.record.resultText.length });
	}
	// A sent result that is not the raw one is a stub (the rows' rule): the ref it names.
	for (let i = 0; i < rendered.length; i++) {
		if (paced(i)) {
			yield;
		}
		const at = alignment.rawIndexOf[i] ?? -1;
		const original = raw[at];
		const sent = rendered[i];
		if (original?.role !== 'toolResult' || sent === original) {
			continue;
		}
		const ref = stubRef(stubTarget(state, original), original);
		if (!refs.has(ref)) {
			refs.set(ref, { ref, kind: 'tool', toolName: original.toolName, chars: rawSizes[at] ?? 0 });
		}
	}
	for (const chain of state.chains) {
		refs.set(chain.entry.blockId, { ref: chain.entry.blockId, kind: 'block', toolCallIds: chain.entry.droppedToolCallIds });
	}
	return [...refs.values()];
}
