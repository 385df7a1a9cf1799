/**
 * Which entry each message of a context came from, by index, worked out when first asked for. Pure.
 *
 * Only the preview (naming a row's entry) and the views of context edits need it, so a context does not
 * keep a second list as long as its messages for every session it reads, nor copy one on every entry
 * Pi appends: the list is made from the model when asked (one pass over the branch, in steps) and kept.
 */
import type { SessionEntry } from './types';
import { type Steps } from '../steps';

export class ContextSources {
	private list: readonly SessionEntry[] | undefined;

	constructor(private readonly compute: () => Steps<readonly SessionEntry[]>) {}

	/** The entries, one per message of the context, yielding while they are worked out. */
	*entriesSteps(): Steps<readonly SessionEntry[]> {
		if (this.list === undefined) {
			const list = yield* this.compute();
			this.list ??= list;
		}
		return this.list;
	}

}
