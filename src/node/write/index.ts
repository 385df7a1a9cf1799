/**
 * Public API of write-back: appending entries to idle Pi session files, and the Pi process check.
 */
export { writeEntriesToSession, DEFAULT_QUIET_MS, DEFAULT_MAX_WAIT_MS, DEFAULT_POLL_MS, type WriteEntriesOptions } from './sessionWriter';
export type { WriteEntriesResult } from './writeResult';
export { readSessionFileState, type SessionBase, type SessionFileState, type SessionFileRead } from './sessionFileState';
export { detectPiHolders, describeHolders } from './piHolders';
export type { PiHolderCheck, PiHolderQuery, PiHolderReport, PiHolder } from './piHolderTypes';
export { looksLikePi, PI_COMMAND_MARKERS } from './piProcessMatch';
export type { AppendHooks } from './appendLines';
export { undoAppend, type UndoResult, type UndoRefusalCode, type UndoOptions } from './undoAppend';
export type { WrittenBytes } from './appendLines';
