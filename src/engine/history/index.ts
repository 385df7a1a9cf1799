/** Public API of src/engine/history/ (what the session index keeps of session lines) for the layers above the engine. */
export { CONDENSE_TYPE_PREFIX, entryFacts } from './entryFacts';
export { type ExtractedLines, extractLinesSteps } from './extractLines';
export type { CondenseEvent, DocRole, SearchDoc, UsageRecord, UsageSource } from './historyRecords';
export { exactLine, LATIN1_LINE_BYTES, parseLine, type RawLine, toUtf8Line } from './rawLine';
export { printable, type SearchQuery, searchQuery, type Snippet, snippetOf } from './searchQuery';
export { separateSpaceless } from './spacelessScripts';
