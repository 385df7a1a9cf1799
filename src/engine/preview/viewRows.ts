/**
 * The rows of both views, the rendered context (what the model is sent) and Pi's raw context,
 * built when asked for. A row is small to build (bounded texts, a few badges) but the rows of a
 * whole 100 MB session are about 80 MB: the page only ever shows a window of them, so only the
 * indexes that place a row (its key, its counterpart, the chain it went into) are kept. Pure: the
 * messages, state and alignment it reads never change.
 */
import { syntheticBlockId } from '../condense/phases/syntheticChain';
import type { ContextMessage } from '../session/types';
import { editedOrigin } from './contextEditNotes';
import { messageChanges, withEdit, type MessageChanges } from './messageChanges';
import { chainBadges, droppedBadge, previewRow, type RowInputs } from './previewRow';
import type { ViewName } from './snapshotTypes';
import type { PreviewRow } from './types';
import { mapSteps, paced, Pacer, type Steps } from '../steps';

/** A synthetic chain message of the rendered view: its block id and its row's key. */
interface SyntheticRow {
	readonly blockId: string;
	readonly key: string;
}

interface RowIndexes {
	/** For each raw tool result, the arguments of the latest call with its id before it. */
	readonly argsOf: readonly unknown[];
	/** The block id of the chain that dropped a tool call. */
	readonly chainOfCall: ReadonlyMap<string, string>;
	readonly droppedCallsOf: ReadonlyMap<string, number>;
	readonly syntheticAt: ReadonlyMap<number, SyntheticRow>;
	readonly syntheticByKey: ReadonlyMap<string, number>;
}

const RAW_KEY = /^m(0|[1-9][0-9]*)$/;

export class ViewRows {
	private constructor(readonly inputs: RowInputs, private readonly indexes: RowIndexes) {}

	/** Builds the indexes of the rows, yielding between pieces of work (see `src/engine/steps.ts`). */
	static *build(inputs: RowInputs): Steps<ViewRows> {
		const argsOf = yield* callArguments(inputs.raw);
		const chainOfCall = new Map<string, string>();
		const droppedCallsOf = new Map<string, number>();
		// Paced by calls: 4,288 chains dropping 13,000 calls were 22 ms in one go.
		const pacer = new Pacer();
		for (const chain of inputs.state.chains) {
			if (!droppedCallsOf.has(chain.entry.blockId)) {
				droppedCallsOf.set(chain.entry.blockId, chain.entry.droppedToolCallIds.length);
			}
			for (const id of chain.entry.droppedToolCallIds) {
				chainOfCall.set(id, chain.entry.blockId);
			}
			if (pacer.due(chain.entry.droppedToolCallIds.length)) {
				yield;
			}
		}
		const { syntheticAt, syntheticByKey } = yield* syntheticRows(inputs);
		return new ViewRows(inputs, { argsOf, chainOfCall, droppedCallsOf, syntheticAt, syntheticByKey });
	}

	count(view: ViewName): number {
		return this.messages(view).length;
	}

	message(view: ViewName, index: number): ContextMessage | undefined {
		return this.messages(view)[index];
	}

	/** The row at `index` of `view`; undefined past its end. */
	row(view: ViewName, index: number): PreviewRow | undefined {
		return view === 'after' ? this.renderedRow(index) : this.rawRow(index);
	}

	/** Every row of the view: as much as the whole session; for tests and small sessions. */
	all(view: ViewName): PreviewRow[] {
		return this.messages(view).map((_message, i) => this.row(view, i) as PreviewRow);
	}

	/** The index of the row with this key (`m<raw index>` or `b<block id>[~n]`). */
	indexOfKey(view: ViewName, key: string): number | undefined {
		const raw = RAW_KEY.exec(key);
		if (!raw) {
			return view === 'after' ? this.indexes.syntheticByKey.get(key) : undefined;
		}
		const index = Number(raw[1]);
		if (index >= this.inputs.raw.length) {
			return undefined;
		}
		if (view === 'before') {
			return index;
		}
		const at = this.inputs.alignment.renderedIndexOf[index] ?? -1;
		return at < 0 ? undefined : at;
	}

	/** The session entry a row's message came from (none for a synthetic chain). */
	entryIdAt(view: ViewName, index: number): string | undefined {
		const raw = view === 'before' ? index : this.inputs.alignment.rawIndexOf[index] ?? -1;
		return raw < 0 ? undefined : this.inputs.entryIds[raw];
	}

	private messages(view: ViewName): readonly ContextMessage[] {
		return view === 'after' ? this.inputs.rendered : this.inputs.raw;
	}

	private rawRow(index: number): PreviewRow | undefined {
		const message = this.inputs.raw[index];
		if (!message) {
			return undefined;
		}
		const at = this.inputs.alignment.renderedIndexOf[index] ?? -1;
		const change = this.changesOf(index);
		const badges = at < 0 ? [droppedBadge(message, this.indexes.chainOfCall), ...change.badges] : change.badges;
		return previewRow(message, this.inputs.sizes.before[index] as number, `m${index}`, this.inputs, badges, change, at < 0 ? undefined : at, this.inputs.entryIds[index]);
	}

	private renderedRow(index: number): PreviewRow | undefined {
		const message = this.inputs.rendered[index];
		if (!message) {
			return undefined;
		}
		const raw = this.inputs.alignment.rawIndexOf[index] ?? -1;
		if (raw < 0) {
			const synthetic = this.indexes.syntheticAt.get(index) ?? { blockId: `?${index}`, key: `b?${index}` };
			const badges = chainBadges(synthetic.blockId, this.indexes.droppedCallsOf.get(synthetic.blockId) ?? 0, this.inputs.simulatedBlocks);
			return previewRow(message, this.inputs.sizes.after[index] as number, synthetic.key, this.inputs, badges, { badges: [] }, undefined, undefined);
		}
		const change = this.changesOf(raw);
		return previewRow(message, this.inputs.sizes.after[index] as number, `m${raw}`, this.inputs, change.badges, change, raw, this.inputs.entryIds[raw]);
	}

	private changesOf(rawIndex: number): MessageChanges {
		const at = this.inputs.alignment.renderedIndexOf[rawIndex] ?? -1;
		const { state, isProtected, sizes } = this.inputs;
		const changes = messageChanges(this.inputs.raw[rawIndex] as ContextMessage, rawIndex, at < 0 ? undefined : this.inputs.rendered[at], {
			state, isProtected, rawSizes: sizes.before, argsOf: (r) => this.indexes.argsOf[r],
		});
		const edit = this.inputs.editedAt?.get(rawIndex);
		return edit ? withEdit(changes, editedOrigin(edit)) : changes;
	}
}

/** For each raw tool result, the arguments of the latest call with its id before it. */
function* callArguments(raw: readonly ContextMessage[]): Steps<unknown[]> {
	const latest = new Map<string, unknown>();
	return yield* mapSteps(raw, (message) => {
		if (message.role === 'assistant') {
			for (const block of message.content) {
				if (block.type === 'toolCall') {
					latest.set(block.id, block.arguments);
				}
			}
		}
		return message.role === 'toolResult' ? latest.get(message.toolCallId) : undefined;
	});
}

/**
 * The synthetic chain messages of the rendered view and their keys. 2.0.0–2.5.0 insert a chain's
 * synthetic after every user message at its start timestamp: the second one's key is `b<id>~1`.
 */
function* syntheticRows(inputs: RowInputs): Steps<Pick<RowIndexes, 'syntheticAt' | 'syntheticByKey'>> {
	const syntheticAt = new Map<number, SyntheticRow>();
	const syntheticByKey = new Map<string, number>();
	const seen = new Map<string, number>();
	for (let i = 0; i < inputs.rendered.length; i++) {
		if (paced(i)) {
			yield;
		}
		if ((inputs.alignment.rawIndexOf[i] ?? -1) >= 0) {
			continue;
		}
		const blockId = syntheticBlockId(inputs.rendered[i] as ContextMessage) ?? `?${i}`;
		const count = seen.get(blockId) ?? 0;
		seen.set(blockId, count + 1);
		const key = count === 0 ? `b${blockId}` : `b${blockId}~${count}`;
		syntheticAt.set(i, { blockId, key });
		syntheticByKey.set(key, i);
	}
	return { syntheticAt, syntheticByKey };
}
