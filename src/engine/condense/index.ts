/**
 * Public API of the render engine (pi-condense's state, context transform, measurement, status
 * texts, recovery and pending capture). Pure.
 */
export * from './types';
export { buildCondenseStateSteps, type BuildStateOptions } from './state/buildCondenseState';
export {
	EMPTY_CONDENSE_STATE,
	type AliasOccurrence, type ChainInfo, type CondenseState, type RecordOccurrence, type ResultCoverage, type StateKeying, type SummaryInfo, type SummaryRef,
} from './state/condenseState';
export { coverageOf, isSummarized, ownKey, resolveKey, resolveRecord, stubTarget, type StubTarget } from './state/indexLookups';
export { bareToolCallId, occurrenceKey, parseOccurrenceKey, resultOccurrenceKey, contentText } from './occurrence';
export { compileGlob, type PathMatcher } from './protection/globMatcher';
export { protectionCheck, type ProtectionCheck, type ProtectionConfig } from './protection/protectionRules';
export { stubReplaceSteps } from './phases/stubReplace';
export { summarizedStubText, spilledStubText } from './phases/stubText';
export { purgeErroredArgsSteps } from './phases/errorPurge';
export { chainPruneByIdSteps } from './phases/chainPruneById';
export { chainPrunePositionalSteps } from './phases/chainPrunePositional';
export { syntheticChainMessage, syntheticBlockId, type ProtectedOutput } from './phases/syntheticChain';
export { substituteBlockRefs } from './phases/blockRefs';
export { stripOldThinking, stripThinkingBefore } from './phases/thinkingStrip';
export { sweepOrphanResultsSteps } from './phases/orphanSweep';
export { recoveryGraceKeysSteps, RECOVERY_TOOL_NAME } from './phases/recoveryGrace';
export type { DefectKind, DefectWarning, ReleaseDiagnostic, RenderReporter } from './phases/renderReport';
export { renderContextSteps } from './render/renderContext';
export { predictAtLeafSteps } from './render/predictAtLeaf';
export { renderBranchSteps, previewContextSteps, previewFromStateSteps, type RenderedContext } from './renderBranch';
export { measureReclaimSteps, contextBreakdownSteps, type ContextBreakdown, type SizeCategory } from './measure/contextSize';
export { pruneStatusText, pendingStatusText, SUMMARIZING_STATUS_TEXT, type LiveReclaim } from './measure/statusText';
export { formatCompactCount, formatCost, charsToTokens } from './measure/compactFormat';
export { recoverOutputs, resolveRecoveryId, rawOutput, SPILL_UNAVAILABLE, type RecoveredOutput, type RecoveryResult } from './recovery/recoveryQuery';
export { truncateHead, DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, type HeadTruncation } from './recovery/truncateHead';
export { sanitizeBlobId, blobFileNames } from './recovery/blobFileName';
export { capturePendingBatchesSteps } from './pending/capturePending';
export { groupBatches } from './pending/groupBatches';
export type { PendingBatch, PendingCall } from './pending/pendingTypes';
export { buildPrunedTreeSteps, summaryNodeLabel, EMPTY_TREE_TEXT, type PrunedSummaryNode, type PrunedToolNode } from './tree/prunedTree';
export { statsText } from './tree/statsText';
