/**
 * One preview: the base (state, previous call) with the what-if settings applied, rendered and
 * measured into the snapshot the page shows. Pure. Also keeps both views' messages and their rows
 * (built when asked for), from which the host answers row windows, expansions and searches.
 *
 * @example
 * const base = runSteps(snapshotBaseSteps({ sessionPath, title, branch, messages, config, release }));
 * const { snapshot } = runSteps(computePreviewSteps(base, { overrides: { 'thinkingStrip.keepLastTurns': 4 }, pricing, now: Date.now() }));
 */
import { conversationChars, measuredContextSteps } from '../condense/measure/contextSize';
import { stringifiedLength } from '../condense/measure/jsonLength';
import { pruneStatusText } from '../condense/measure/statusText';
import type { DefectWarning, ReleaseDiagnostic } from '../condense/phases/renderReport';
import { protectionCheck } from '../condense/protection/protectionRules';
import { renderContextSteps } from '../condense/render/renderContext';
import type { ContextMessage } from '../session/types';
import { alignContextsSteps } from './alignContexts';
import { contextEditNotes } from './contextEditNotes';
import type { RowBounds } from './previewRow';
import { ViewRows } from './viewRows';
import { cacheImpactSteps, type PricingInfo } from './cacheImpact';
import type { SnapshotBase } from './snapshotBase';
import { refIndexSteps } from './refIndex';
import { simulateWindowSteps, type WindowSimulation } from './simulateWindow';
import type { LastCallUsage, PageFigures, ViewName } from './snapshotTypes';
import { tokenBars, tokenTotals } from './tokenBars';
import { sanitizeOverrides, whatIfChanges, whatIfSettings, withWhatIf, type WhatIfOverrides } from './whatIf';
import { type Steps } from '../steps';

/** What one computation of the preview takes besides the base. */
export interface WhatIfOptions {
	readonly overrides: WhatIfOverrides;
	readonly pricing: PricingInfo | undefined;
	/** Epoch ms; also the `compressedAt` of simulated chains. */
	readonly now: number;
	readonly bounds?: RowBounds;
}

/** One what-if applied to a snapshot's base: the page's figures, both views' messages and their rows. */
export interface WhatIfResult {
	readonly snapshot: PageFigures;
	readonly views: Readonly<Record<ViewName, readonly ContextMessage[]>>;
	/** Both views' rows, built when asked for. */
	readonly rows: ViewRows;
}

/** The page's data for the base under the what-if overrides, in steps (see `src/engine/steps.ts`). */
export function* computePreviewSteps(base: SnapshotBase, options: WhatIfOptions): Steps<WhatIfResult> {
	const overrides = sanitizeOverrides(options.overrides);
	const config = withWhatIf(base.config, overrides);
	const isProtected = protectionCheck(config);
	const window = overrides['chainCompression.rollingWindow'];
	const windowChanged = window !== undefined && window !== base.config.chainCompression.rollingWindow;
	const simulation: WindowSimulation = config.enabled && config.chainCompression.enabled && windowChanged
		? yield* simulateWindowSteps(base.state, base.messages, config.chainCompression.rollingWindow, isProtected, options.now, base.rules, { branch: base.branch, turns: config.recoveryGraceTurns ?? 0 })
		: { state: base.state, simulated: [], uncovered: 0 };
	const diagnostics: ReleaseDiagnostic[] = [];
	const warnings: DefectWarning[] = [];
	yield;
	const after = yield* renderContextSteps(base.messages, simulation.state, config, base.rules, { diagnostic: (d) => diagnostics.push(d), warning: (w) => warnings.push(w) });
	const alignment = yield* alignContextsSteps(base.messages, after);
	// The engine's previewFromStateSteps, measured from the base's table: a sent message that is the raw
	// one at its aligned index has its size; only stubs and synthetic messages are measured.
	const raw = base.measured;
	const sent = after === base.messages ? raw : yield* measuredContextSteps(after, {
		table: raw,
		indexOf: (message, index) => {
			const at = alignment.rawIndexOf[index] ?? -1;
			return at >= 0 && base.messages[at] === message ? at : -1;
		},
	});
	// pi-condense's status line measures the conversation it saw: without Pi 1.x's system messages.
	const conversation = { beforeChars: conversationChars(base.messages, raw), afterChars: after === base.messages ? conversationChars(base.messages, raw) : conversationChars(after, sent) };
	const reclaim = after === base.messages ? undefined : conversation;
	const preview = { after, diagnostics, statusText: pruneStatusText(config, reclaim) };
	const sizes = { before: raw.sizes, after: sent.sizes };
	const rows = yield* ViewRows.build({
		raw: base.messages,
		rendered: preview.after,
		alignment,
		state: simulation.state,
		isProtected,
		entryIds: base.entryIds,
		editedAt: base.editedAt,
		simulatedBlocks: new Set(simulation.simulated),
		sizes,
		argsText: base.argsText,
		...(options.bounds ? { bounds: options.bounds } : {}),
	});
	const beforeSizes = raw.breakdown;
	const afterSizes = sent.breakdown;
	yield;
	const cache = yield* cacheImpactSteps({
		next: preview.after,
		nextRaw: base.messages,
		previous: base.previousSent,
		previousRaw: base.previousRaw,
		usage: base.reply?.usage,
		previousCallAt: base.reply?.timestamp,
		pricing: options.pricing,
		sizeOf: (message, index, list) => {
			const table = list === preview.after ? sent.sizes : list === base.messages ? raw.sizes : list === base.previousSent ? base.previousSizes : undefined;
			return table?.[index] ?? stringifiedLength(message);
		},
	});
	yield;
	const refs = yield* refIndexSteps({ state: simulation.state, raw: base.messages, rendered: preview.after, alignment, rawSizes: raw.sizes });
	const snapshot: PageFigures = {
		sessionPath: base.sessionPath,
		title: base.title,
		enabled: config.enabled,
		release: base.rules.version,
		statusText: preview.statusText,
		bars: tokenBars(beforeSizes, afterSizes),
		totals: tokenTotals(beforeSizes, afterSizes, base.messages.length, preview.after.length, conversation),
		usage: lastCallUsage(base),
		sessionUsage: base.sessionUsage && {
			tokens: base.sessionUsage.input + base.sessionUsage.output + base.sessionUsage.cacheRead + base.sessionUsage.cacheWrite,
			cost: base.sessionUsage.cost,
			usageEntries: base.sessionUsage.usageEntries,
		},
		cache,
		whatIf: {
			thinkingStripApplies: base.rules.thinkingStrip !== 'none',
			configured: whatIfSettings(base.config),
			effective: whatIfSettings(config),
			changes: whatIfChanges(base.config, overrides),
			simulatedChains: simulation.simulated,
			uncoveredChains: simulation.uncovered,
		},
		refs,
		diagnostics: [
			...base.state.diagnostics.map((d) => `line ${d.line}: ${d.message}`),
			...preview.diagnostics.map((d) => `${d.kind}: ${d.detail}${d.kind !== 'orphan-sweep' && d.line !== undefined ? ` (line ${d.line})` : ''}`),
		],
		warnings: warnings.map((w) => ({ kind: w.kind, message: w.message, ...(w.fixedIn ? { fixedIn: w.fixedIn } : {}) })),
		contextEdits: contextEditNotes(base.edits),
		computedAt: options.now,
	};
	return { snapshot, views: { after: preview.after, before: base.messages }, rows };
}

function lastCallUsage(base: SnapshotBase): LastCallUsage | undefined {
	const reply = base.reply;
	if (!reply) {
		return undefined;
	}
	const { input, output, cacheRead, cacheWrite, totalTokens, cost } = reply.usage;
	return { provider: reply.provider, model: reply.model, timestamp: reply.timestamp, input, output, cacheRead, cacheWrite, totalTokens, costTotal: cost.total };
}
