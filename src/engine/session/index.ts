/**
 * Public API of the session model. Pure.
 */
export { buildSessionContextSteps } from './context';
export { getBranchSteps } from './branch';
export { convertToLlm, bashExecutionToText } from './convert';
export { parseSessionSteps, appendToSession, WholeSessionReader, CURRENT_SESSION_VERSION } from './parse';
export { SessionPieceReader, type ParsedLine } from './pieceReader';
export { getTree, type SessionTree } from './tree';
export { splitJsonlLines } from './jsonl';
export type * from './model';
export type * from './types';
export { parseHeaderLine } from './headerLine';
export { EMPTY_SUMMARY, sessionModifiedTime, type SessionSummary, summarizeLines } from './summary';
export { systemPromptText } from './systemMessages';
