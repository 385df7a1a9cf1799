/**
 * Public API of the pure write-back helpers: entry envelopes and ids, the checks a model must pass
 * before anything is appended, tail verification after a write, and stranded-entry detection. Pure.
 */
export { newEntryId, type RandomBytes } from './entryId';
export { prepareEntriesSteps, InvalidDraftError, sessionInfoDraft, type SessionInfoDraft, type WritableDraft, type EntryDraft, type CustomEntryDraft, type CustomMessageEntryDraft, type PreparedEntry, type EnvelopeContext } from './entryEnvelope';
export { findOpenToolTurn, type OpenToolTurn } from './openToolTurn';
export { checkModelWritable, refusal, unfinishedLineMessage, ADVICE_CLOSE_PI, type WriteRefusal, type WriteRefusalCode } from './writeRefusal';
export { verifyWrittenTailSteps, type TailVerification, type WrittenLineCheck, type WrittenLineStatus, type ExpectedLine } from './tailVerification';
export { checkWrittenEntriesSteps, type WrittenEntriesState } from './writtenEntriesState';
