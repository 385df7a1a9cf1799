/**
 * Comparing session models as their users see them, and session text with branches, labels and
 * names for property-style checks of the readers.
 */
import { buildSessionContextSteps, getBranchSteps, type SessionModel } from '../../src/engine/session';
import type { Random } from './random';
import { runSteps } from '../../src/engine/steps';

/** Everything a caller can read from a model: two models that give the same are the same. */
export function observable(model: SessionModel): unknown {
	return {
		header: model.header,
		version: model.version,
		entries: model.entries,
		diagnostics: model.diagnostics,
		leafId: model.leafId,
		name: model.name,
		lineCount: model.lineCount,
		pendingTail: model.pendingTail,
		lines: model.entries.map((entry) => model.lineOf(entry)),
		labels: model.entries.map((entry) => model.labelOf(entry.id)),
		byId: model.entries.map((entry) => model.entryById(entry.id)?.id),
		branch: runSteps(getBranchSteps(model)).map((entry) => entry.id),
		context: observableContext(model),
	};
}

/** The context as plain values (its sources worked out: a context holds the recipe, not the list). */
export function observableContext(model: SessionModel): unknown {
	const { messages, sources, edits, omitted, thinkingLevel, model: ref } = runSteps(buildSessionContextSteps(model));
	return { messages, sources: runSteps(sources.entriesSteps()), edits: [...edits], omitted, thinkingLevel, model: ref };
}

/** Rewires some parentIds and adds labels and session names so the property covers branches. */
export class SessionTextMutator {
	constructor(private readonly random: Random) {}

	withRandomBranchesAndLabels(text: string): string {
		const out: string[] = [];
		const ids: string[] = [];
		for (const line of text.split('\n')) {
			if (!line) {
				continue;
			}
			const entry = JSON.parse(line) as Record<string, unknown>;
			if (entry['type'] !== 'session' && ids.length > 3 && this.random.chance(0.05)) {
				entry['parentId'] = this.random.pick(ids);
			}
			out.push(JSON.stringify(entry));
			if (typeof entry['id'] === 'string' && entry['type'] !== 'session') {
				ids.push(entry['id']);
				if (this.random.chance(0.03)) {
					out.push(JSON.stringify({ type: 'label', id: `lab${ids.length}`, parentId: entry['id'], timestamp: '2026-01-01T00:00:00.000Z', targetId: this.random.pick(ids), label: this.random.chance(0.5) ? 'x' : undefined }));
				}
				if (this.random.chance(0.01)) {
					out.push(JSON.stringify({ type: 'session_info', id: `inf${ids.length}`, parentId: entry['id'], timestamp: '2026-01-01T00:00:00.000Z', name: this.random.chance(0.7) ? ` name ${ids.length} ` : '' }));
				}
				if (this.random.chance(0.01)) {
					out.push('{"broken json');
				}
			}
		}
		return out.map((line) => `${line}\n`).join('');
	}
}
