/**
 * Where the window that measures a prune starts. Rendering the whole context with and without a
 * prune costs a render of the whole session per prune; but the two renders differ only in the
 * messages the prune's entries change, so both are taken over a window: from the turn where the
 * first message the prune changes sits, to the end of the context. Pure.
 *
 * The window gives the whole context's difference when what comes before it renders alike in both
 * renders and does not change how the window renders. The prune's footprint (`footprintSteps`,
 * pruneFootprint.ts) is every message its entries can change: its own summaries; the tool results it
 * files, aliases or names (by occurrence key, by bare id for a legacy record), and the calls of an
 * errored one (phase 2 purges by bare id); its chains' start messages, the summaries naming what they
 * drop, a synthetic message already there. Then the start moves back (`widenedSteps`) until no phase reaches
 * across it: to a message that sets the orphan sweep's open calls (2.6.0+); before an errored result
 * whose calls the window holds; before any chain range it would cut where the prunes change
 * something, and before every copy of a timestamp a chain resolves by (a chain applies only when its
 * timestamps are unique); before the chain ranges holding a result a window summary names (the chain
 * drops the summary); before every recovery still in grace; back far enough that the thinking strip
 * keeps the same messages. When nothing bounds it, the window is the whole context:
 * the figure is always the whole context's.
 */
import type { ContextPruneConfig } from '../config/types';
import { occurrenceKey } from '../condense/occurrence';
import type { CondenseState } from '../condense/state/condenseState';
import type { ReleaseRules } from '../release/releases';
import type { SessionEntry } from '../session/types';
import type { ChainSpans } from './chainSpans';
import { summaryRefs, type ContextTrack } from './contextTrack';
import { isCondenseEntry } from './pruneEntries';
import { paced, type Steps } from '../steps';

export interface WindowFacts {
	readonly track: ContextTrack;
	readonly rules: ReleaseRules;
	readonly config: ContextPruneConfig;
	/** Every chain the renders may apply (the branch's, the measured prunes' included). */
	readonly spans: ChainSpans;
	/** pi-condense's state before the measured prunes. */
	readonly before: CondenseState;
}

/** `footprint` moved back until the window it starts renders as it does in the whole context. */
export function* widenedSteps(facts: WindowFacts, footprint: number): Steps<number> {
	let start = footprint;
	for (;;) {
		let next = cutAt(facts, start);
		next = Math.min(next, yield* erroredBeforeSteps(facts.track, next));
		next = Math.min(next, chainsAcross(facts, next, footprint));
		next = Math.min(next, yield* droppedByEarlierChainSteps(facts, next));
		next = Math.min(next, graceStart(facts, next));
		next = Math.min(next, thinkingStart(facts, next));
		if (next >= start) {
			return start;
		}
		start = next;
	}
}

/**
 * Where a window may start at or before `position`: at a message after which the orphan sweep's open
 * calls are the same whatever came before (an assistant message sets them; from 2.9.1 any message
 * but a tool result empties them, if both renders have it; before 2.6.0 there is no sweep).
 */
function cutAt(facts: WindowFacts, position: number): number {
	const sweep = facts.rules.orphanSweep;
	if (sweep === 'none') {
		return position;
	}
	const { messages, sources } = facts.track;
	for (let at = Math.min(position, messages.length - 1); at > 0; at--) {
		const role = messages[at]?.role;
		// A summary is left out of the renders without its prune (or not yet in force): it sets nothing.
		if (role === 'assistant' || (sweep === 'barrier' && role !== 'toolResult' && !isCondenseEntry(sources[at] as SessionEntry))) {
			return at;
		}
	}
	return 0;
}

/** Phase 2 purges a call by the last errored result of its bare id, anywhere: that result must be in the window. */
function* erroredBeforeSteps(track: ContextTrack, start: number): Steps<number> {
	let first = start;
	const check = (id: string): void => {
		const error = track.firstErrorById.get(id);
		if (error !== undefined && error < first) {
			first = error;
		}
	};
	for (let position = start; position < track.messages.length; position++) {
		if (paced(position)) {
			yield;
		}
		const message = track.messages[position];
		if (message?.role === 'assistant') {
			for (const block of message.content) {
				if (block.type === 'toolCall') {
					check(block.id);
				}
			}
		} else if (message?.role === 'toolResult') {
			check(message.toolCallId);
		}
	}
	return first;
}

/**
 * A chain range the start would cut, when it reaches a message the prunes change (before it, both
 * renders agree there); every copy of a chain's timestamp (a chain applies only when its timestamps
 * are unique); a synthetic message already there.
 */
function chainsAcross(facts: WindowFacts, start: number, footprint: number): number {
	const { spans } = facts;
	let first = start;
	for (const slot of spans.copies()) {
		if (slot.first < first && slot.last >= first) {
			first = slot.first;
		}
	}
	if (facts.rules.positionalChains) {
		const cut = first;
		spans.rangesAround(cut, (range) => {
			if (footprint <= range.end) {
				first = Math.min(first, range.start);
			}
		});
	}
	for (const block of facts.track.blocks) {
		if (block.position < first && spans.blockIds.has(block.blockId)) {
			first = block.position;
		}
	}
	return first;
}

/**
 * A window summary naming a result inside a chain range that starts before the window: that chain
 * drops the summary in the whole context (2.6.0+), so the window starts with its range. A summary is
 * a barrier to the orphan sweep and may lie inside a prune's chain: whether it is there matters.
 */
function* droppedByEarlierChainSteps(facts: WindowFacts, start: number): Steps<number> {
	const { track, spans } = facts;
	if (!facts.rules.positionalChains || !spans.any) {
		return start;
	}
	let first = start;
	const within = (at: number): void => {
		if (at < start) {
			spans.rangesAround(at, (range) => {
				if (range.start < at) {
					first = Math.min(first, range.start);
				}
			});
		}
	};
	for (let position = start; position < track.messages.length; position++) {
		if (paced(position)) {
			yield;
		}
		const message = track.messages[position];
		if (message?.role !== 'custom') {
			continue;
		}
		for (const ref of summaryRefs(message.details)) {
			if (ref.resultTimestamp === undefined) {
				track.resultsOf(ref.toolCallId).forEach(within);
			} else {
				const at = track.firstResultByKey.get(occurrenceKey(ref.toolCallId, ref.resultTimestamp));
				if (at !== undefined) {
					within(at);
				}
			}
		}
	}
	return first;
}

/** Recoveries within the grace turns keep outputs verbatim by key: all of them in the window. */
function graceStart(facts: WindowFacts, start: number): number {
	const turns = facts.rules.recoveryGrace ? facts.config.recoveryGraceTurns ?? 0 : 0;
	const { users, recoveries } = facts.track;
	if (!(turns > 0) || recoveries.length === 0) {
		return start;
	}
	// A recovery is in grace when at most `turns` user messages follow it.
	const after = users.length > turns ? users[users.length - turns - 1] as number : -1;
	const inGrace = recoveries.find((position) => position > after);
	return inGrace !== undefined && inGrace < start ? inGrace : start;
}

/**
 * Up to 2.4.3 the thinking strip keeps the last assistant messages (by count) or those after the
 * frontier's boundary: by count, the window must hold that many that no chain drops; by boundary,
 * the whole context.
 */
function thinkingStart(facts: WindowFacts, start: number): number {
	const strip = facts.config.thinkingStrip;
	if (facts.rules.thinkingStrip === 'none' || strip?.enabled !== true || start === 0) {
		return start;
	}
	if (facts.rules.thinkingStrip === 'flush-boundary') {
		return 0;
	}
	const keep = Number.isNaN(strip.keepLastTurns) ? 1 : Math.max(1, strip.keepLastTurns);
	const dropped = facts.spans.droppedIds;
	const { messages } = facts.track;
	let kept = 0;
	for (let position = start; position < messages.length && kept < keep; position++) {
		const message = messages[position];
		if (message?.role === 'assistant' && !message.content.some((block) => block.type === 'toolCall' && dropped.has(block.id))) {
			kept++;
		}
	}
	return kept >= keep ? start : cutAt(facts, start - 1);
}
