/** Public API of src/engine/live/ for the layers above the engine. */
export { bridgeLine, type BridgeMessage, type BridgeMethod, type BridgeResults, type ClientCall, clientLine, MAX_HELLO_CHARS, MAX_LINE_CHARS, MAX_PART_CHARS, parseBridgeMessage, parseClientMessage, RESULT_READERS, resultOf, TEXT_CHUNK_CHARS } from './bridgeMessages';
export { BRIDGE_PROTOCOL, type BridgeRecord, MAX_RECORD_BYTES, parseBridgeRecord, RECORD_NAME, SOCKET_NAME } from './bridgeRecord';
export { canonicalJson } from './canonicalJson';
export { type JsonPiecesOptions, jsonPiecesSteps } from './jsonPieces';
export { lastUsageView, type LastUsageView } from './lastUsage';
export { lastSentView, type LastSentView, liveFigure, liveLine } from './liveTexts';
export type { BridgeState, LiveModel, LiveUsage, MessageDigest, PartDigest, PiCondenseLoaded, PrunerSubcommand, SentDigest, SentPart } from './liveTypes';
export { BRIDGE_COMMAND, type CommandSource, findLoadOrder, type FoundOrder, PI_CONDENSE_PACKAGES } from './loadOrder';
export { compareSent, comparisonSummary, type SentComparison } from './sentComparison';
export { parseBridgeState, parseSentDigest } from './stateParsers';
export { jsonArrayItemsSteps, parseJsonSteps } from './jsonParts';
export { FOLD_CHARS, foldPieces, readableJsonSteps } from './readableJson';
export { type PayloadPart, type RequestDocument, requestDocument, type RequestHead, type WrittenMessage, type WrittenRequest, writtenMessagesSteps, writtenPartSteps, writtenRequestSteps } from './requestDocument';
export { differenceTitle, type RequestDifference, requestDifference } from './requestDifference';
