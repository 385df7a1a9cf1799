/**
 * The reference for the costs engine's prune measures: the same epochs, each prune measured by the
 * definition itself, two renders of the whole branch per prune (without it and every later one,
 * minus without only the later ones), nothing kept from one epoch to the next. Slow on purpose and
 * written plainly: `pruneMeasuresSteps` must give exactly these figures with its windows.
 */
import { buildCondenseStateSteps, renderContextSteps } from '../../src/engine/condense';
import { serializedLengthSteps } from '../../src/engine/condense/measure/contextSize';
import type { MeasureInputs, PruneMarker } from '../../src/engine/costs';
import { getBranchSteps } from '../../src/engine/session';
import { pathContextSteps } from '../../src/engine/session/context';
import type { SessionEntry } from '../../src/engine/session/types';
import { runSteps } from '../../src/engine/steps';

export interface ReferenceEpoch {
	readonly request: number;
	readonly removed: ReadonlyMap<number, number>;
}

export function fullRenderMeasures(inputs: MeasureInputs): ReferenceEpoch[] {
	const { model, timeline, rules, config } = inputs;
	const prunes = timeline.markers.filter((marker): marker is PruneMarker => marker.kind === 'prune');
	const epochs: ReferenceEpoch[] = [];
	let removed = new Map<number, number>();
	let structural = true;
	let nextPrune = 0;
	let newPrunes = false;
	let previousId: string | undefined;
	const requestAt = new Map(timeline.requests.map((request) => [request.entryIndex, request]));
	model.entries.forEach((entry, at) => {
		if (previousId !== undefined && entry.parentId !== previousId) {
			structural = true;
		}
		previousId = entry.id;
		const request = requestAt.get(at);
		if (request?.kind === 'reply') {
			while (nextPrune < prunes.length && (prunes[nextPrune] as PruneMarker).beforeRequest <= request.index) {
				nextPrune++;
				newPrunes = true;
			}
			if (structural || newPrunes) {
				const path = runSteps(getBranchSteps(model, entry.parentId));
				const onPath = new Set(path.map((pathEntry) => pathEntry.id));
				const chars = (leftFrom: number): number => {
					const left = new Set(prunes.slice(leftFrom).flatMap((prune) => prune.entryIds));
					const kept: SessionEntry[] = path.filter((pathEntry) => !left.has(pathEntry.id));
					const state = runSteps(buildCondenseStateSteps(kept, rules));
					return runSteps(serializedLengthSteps(runSteps(renderContextSteps(runSteps(pathContextSteps(kept)).messages, state, config, rules))));
				};
				const next = new Map<number, number>();
				prunes.slice(0, nextPrune).forEach((prune, index) => {
					if (!prune.entryIds.some((id) => onPath.has(id))) {
						return;
					}
					const measure = structural || !removed.has(index);
					next.set(index, measure ? Math.max(0, (chars(index) - chars(index + 1)) / 4) : removed.get(index) ?? 0);
				});
				removed = next;
				epochs.push({ request: request.index, removed });
				structural = false;
				newPrunes = false;
			}
		}
		if (entry.type === 'compaction' || entry.type === 'context_edit' || entry.type === 'branch_summary') {
			structural = true;
		}
	});
	return epochs;
}
