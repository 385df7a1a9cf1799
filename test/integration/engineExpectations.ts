/**
 * What the engine itself says about a fixture session, computed in the test from the file on disk,
 * for comparison with what the extension shows.
 */
import { readFileSync } from 'node:fs';
import type { CondenseState } from '../../src/engine/condense';
import { resolveConfig } from '../../src/engine/config/resolve';
import type { ContextPruneConfig } from '../../src/engine/config/types';
import { parseSessionSteps } from '../../src/engine/session';
import { buildPrunedCallsSteps } from '../../src/engine/views/prunedCallsModel';
import { SessionInsight } from '../../src/engine/views/sessionInsight';
import { statusLineText } from '../../src/engine/views/statusLine';
import { sessionBlobReader } from '../../src/node/condense/sessionBlobReader';
import { contextPruneOnDisk } from './helpers';
import type { ReleaseRules } from '../../src/engine/release/releases';
import { referenceReleases } from '../support/releases';
import { runSteps } from '../../src/engine/steps';

export interface EngineView {
	readonly config: ContextPruneConfig;
	/** The release installed in the integration agent dir, which the extension follows. */
	readonly rules: ReleaseRules;
	readonly state: CondenseState;
	readonly statusText: string;
	readonly summaryHeaders: readonly string[];
	/** The Pruned Calls labels of the summaries (`t1–t3 · 27.9k → 291`), as the engine's view-model makes them. */
	readonly summaryLabels: readonly string[];
	readonly refsBySummary: readonly (readonly string[])[];
	readonly pendingCount: number;
	readonly blobs: ReturnType<typeof sessionBlobReader>;
}

/** `rules`: the one installed in the integration agent dir (the release that wrote basic) unless given. */
export function engineView(path: string, rules: ReleaseRules = referenceReleases().get('basic') as ReleaseRules): EngineView {
	const model = runSteps(parseSessionSteps(readFileSync(path, 'utf8')));
	const { config } = resolveConfig(contextPruneOnDisk(), rules);
	const insight = runSteps(new SessionInsight(model, config, rules).prepare());
	const tree = insight.prunedTree;
	return {
		config,
		rules,
		state: insight.state,
		statusText: statusLineText(config, insight, false),
		summaryHeaders: tree.map((node) => node.header),
		summaryLabels: runSteps(buildPrunedCallsSteps(insight, String)).filter((node) => node.kind === 'summary').map((node) => node.label),
		refsBySummary: tree.map((node) => node.children.map((child) => child.shortRef ?? child.toolCallId)),
		pendingCount: insight.pending.length,
		blobs: sessionBlobReader(path, model.header?.id ?? ''),
	};
}
