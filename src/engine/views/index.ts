/** Public API of src/engine/views/ for the layers above the engine. */
export { type PageAction, pageActions, type PageActions } from './pageActions';
export { basisText, changeText, estimateVersusResult, pendingText, pendingWork, pendingWorkEstimating, planText, reclaimText, type PendingWork } from './estimateText';
export { type ProblemMessage, sessionProblemMessage, settingsProblemMessages } from './problemMessages';
export { buildPrunedCallsSteps, type GroupKind, type PrunedNode } from './prunedCallsModel';
export { ignoredRowText, parseSettingInput, type ReleaseSettingRow, type SettingRow, settingRows, settingValue, valueWithDefault } from './pruneSettingRows';
export { pruneHeadline, type PruneState, pruneStateOf, reclaimCondition, sentSentence } from './pruneState';
export { type PlainReport, reportMarkdown } from './reportMarkdown';
export { type RestrictedAction, restrictedModeRefusal } from './restrictedMode';
export { fitSessionLabel } from './rowFit';
export { codeBlock, inertMarkdown, joinMarkdown, linkSafe, md, SafeMarkdown } from './safeText';
export { type PreparedInsight, SessionInsight } from './sessionInsight';
export { shortenHome } from './sessionNames';
export { buildSessionList, captureOrder, defaultSession, type ListedSession, type ListOrder, type ProjectItem, type RowReclaim, type SessionItem, sessionTitle } from './sessionList';
export { statusLineText } from './statusLine';
export { CONVERSATION_MEASURE, measureLine, type ReclaimMeasure, reclaimMeasures, REQUEST_MEASURE } from './reclaimFigures';
export { toolCallLabel } from './toolCallText';
export { AnnotationIndex, type EntryFacts } from './annotationFacts';
export { annotationText, lineAnnotationsSteps, type LineAnnotation, refRanges } from './annotationText';
