/** Public API of src/engine/pruner/ for the layers above the engine. */
export { type ModelArgument, parseBatchingMode, type Parsed, parseDedup, parseMinBatchChars, parseModelArgument, parseNameList, parsePruneOn, parseRecoveryGrace, parseThinking } from './prunerArguments';
export { batchingSetText, dedupStatusText, DISABLED_TEXT, ENABLED_TEXT, minBatchCharsText, modelLabel, modelSetText, modelText, protectedListText, pruneOnSetText, recoveryGraceSetText, recoveryGraceText, statusReportText, thinkingSetText } from './prunerTexts';
