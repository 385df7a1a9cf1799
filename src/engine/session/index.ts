/**
 * Public API of the session model. Pure.
 */
export { buildSessionContext } from './context';
export { getBranch } from './branch';
export { convertToLlm, bashExecutionToText } from './convert';
export { parseSession, appendToSession, WholeSessionReader, CURRENT_SESSION_VERSION } from './parse';
export { SessionPieceReader, type ParsedLine } from './pieceReader';
export { getTree, type SessionTree } from './tree';
export { splitJsonlLines } from './jsonl';
export type * from './model';
export type * from './types';
