/**
 * The names of the two reclaim measures, the same on every surface and in this order (the page
 * shows them too, so they live here; `src/engine/views/reclaimFigures.ts` says what each measures).
 */
export const CONVERSATION_MEASURE = 'Conversation (pi-condense\'s figure)';
export const REQUEST_MEASURE = 'Whole request (with the system prompt)';
