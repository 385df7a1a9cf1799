/**
 * What the engine itself says about a fixture session, computed in the test from the file on disk,
 * for comparison with what the extension shows.
 */
import { readFileSync } from 'node:fs';
import { buildCondenseState, buildPrunedTree, capturePendingBatches, pendingStatusText, previewFromState, type CondenseState } from '../../src/engine/condense';
import { resolveConfig } from '../../src/engine/config/resolve';
import type { ContextPruneConfig } from '../../src/engine/config/types';
import { buildSessionContext, getBranch, parseSession } from '../../src/engine/session';
import { sessionBlobReader } from '../../src/node/condense/sessionBlobReader';
import { contextPruneOnDisk } from './helpers';
import type { ReleaseRules } from '../../src/engine/release/releases';
import { referenceReleases } from '../support/releases';

export interface EngineView {
	readonly config: ContextPruneConfig;
	/** The release installed in the integration agent dir, which the extension follows. */
	readonly release: ReleaseRules;
	readonly state: CondenseState;
	readonly statusText: string;
	readonly summaryHeaders: readonly string[];
	readonly refsBySummary: readonly (readonly string[])[];
	readonly pendingCount: number;
	readonly blobs: ReturnType<typeof sessionBlobReader>;
}

/** `release`: the one installed in the integration agent dir (the release that wrote basic) unless given. */
export function engineView(path: string, release: ReleaseRules = referenceReleases().get('basic') as ReleaseRules): EngineView {
	const model = parseSession(readFileSync(path, 'utf8'));
	const { config } = resolveConfig(contextPruneOnDisk(), release);
	const branch = getBranch(model);
	const state = buildCondenseState(branch, release);
	const preview = previewFromState(state, buildSessionContext(model).messages, config, release);
	const pending = capturePendingBatches(branch, state, config);
	const tree = buildPrunedTree(state);
	const statusText = !config.enabled || pending.length === 0 ? preview.statusText : pendingStatusText(pending.length);
	return {
		config,
		release,
		state,
		statusText,
		summaryHeaders: tree.map((node) => node.header),
		refsBySummary: tree.map((node) => node.children.map((child) => child.shortRef ?? child.toolCallId)),
		pendingCount: pending.length,
		blobs: sessionBlobReader(path, model.header?.id ?? ''),
	};
}
