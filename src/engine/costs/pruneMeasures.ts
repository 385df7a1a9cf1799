/**
 * The counterfactual, from our own engine: at each conversation request, our estimate of the context
 * the model was sent, and how many tokens each earlier prune had taken out of it. Pure.
 *
 * "The same session at that request without the prune": the branch the request answered (root → its
 * parent) is rendered by the render engine (Pi's context, pi-condense's state and transform, as the
 * release does) with and without the prune's entries, and both are measured with pi-condense's own
 * estimate (characters of the JSON / 4). Prunes are taken in order: a prune's share is what it took
 * out beyond the prunes before it (rendered without it and every later one, minus rendered without
 * only the later ones), so the shares add up to everything pruning took out, and a chain that
 * compressed an earlier flush's summaries is not counted twice.
 *
 * A prune's share changes only when the context changes other than by growing at its end: a new
 * prune, a compaction, a branch switch, a context edit. So it is measured at the first request after
 * such a change (an epoch); later requests of the epoch reuse it, and our estimate of their context
 * grows by the messages appended since. A new prune is measured when it appears; the prunes before
 * it again only after a compaction, a branch switch or a context edit.
 *
 * Each measure renders a window, not the whole context (`pruneFootprint.ts`, `pruneWindow.ts`): from
 * the turn where the first message the prune changes sits to the end, chosen so that the two renders
 * differ there exactly as the whole context's would. The branch, its context (`contextTrack.ts`) and
 * pi-condense's state (`CondenseStateBuilder`) are kept as the walk goes (`measureWalk.ts`) and rebuilt
 * only after a structural change, so a session with many prunes costs about one render of itself,
 * not one per prune.
 */
import type { SessionEntry } from '../session/types';
import { Pacer, type Steps } from '../steps';
import type { PruneMarker } from './markerTypes';
import { MeasureWalk } from './measureWalk';
import type { MeasureInputs, PruneMeasures } from './pruneMeasureTypes';

export function* pruneMeasuresSteps(inputs: MeasureInputs): Steps<PruneMeasures> {
	const prunes = inputs.timeline.markers.filter((marker): marker is PruneMarker => marker.kind === 'prune');
	const walk = new MeasureWalk(inputs, prunes);
	const { entries } = inputs.model;
	const { requests } = inputs.timeline;
	const pacer = new Pacer();
	let next = 0;
	for (let at = 0; at < entries.length; at++) {
		const entry = entries[at] as SessionEntry;
		walk.follow(entry);
		while (next < requests.length && (requests[next] as (typeof requests)[number]).entryIndex < at) {
			next++;
		}
		const request = requests[next];
		if (request?.entryIndex === at && request.kind === 'reply') {
			yield* walk.reply(entry, request.index);
		}
		if (pacer.due(walk.note(entry))) {
			yield;
		}
	}
	return { prunes, replies: walk.replies, epochs: walk.epochs, renders: walk.renders };
}
