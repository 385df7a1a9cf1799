/**
 * The reclaim figure, one way on every surface (status bar tooltip, session rows, the preview, the
 * command line): two measures, always named and always in this order. First pi-condense's own, the
 * one its footer (`prune: ON · 5.1k->1.1k (-78%)`) and `/pruner status` print: the conversation it
 * sees, without Pi 1.x's system messages. Then the whole request, with the system prompt: what the
 * provider is sent. Without system messages the two are the same. Tokens are pi-condense's estimate
 * (serialized characters / 4). Pure.
 */
import { charsToTokens, formatCompactCount, reductionPercent, type LiveReclaim } from '../condense';
import { CONVERSATION_MEASURE, REQUEST_MEASURE } from '../../base/reclaimMeasureNames';

export { CONVERSATION_MEASURE, REQUEST_MEASURE };

export interface ReclaimMeasure {
	readonly name: string;
	readonly beforeTokens: number;
	readonly afterTokens: number;
	/** Whole percent taken off, as pi-condense's footer rounds it. */
	readonly percent: number;
}

function measure(name: string, beforeChars: number, afterChars: number): ReclaimMeasure {
	const beforeTokens = charsToTokens(beforeChars);
	const afterTokens = charsToTokens(afterChars);
	return { name, beforeTokens, afterTokens, percent: reductionPercent(beforeTokens, afterTokens) };
}

/** Both measures of a reclaim, in their order. */
export function reclaimMeasures(reclaim: LiveReclaim): readonly [ReclaimMeasure, ReclaimMeasure] {
	const request = reclaim.request ?? reclaim;
	return [measure(CONVERSATION_MEASURE, reclaim.beforeChars, reclaim.afterChars), measure(REQUEST_MEASURE, request.beforeChars, request.afterChars)];
}

/** `Conversation (pi-condense's figure): 5.1k → 1.1k tokens, 78% less`. */
export function measureLine(measure: ReclaimMeasure): string {
	const change = measure.percent === 0 ? 'about the same' : `${measure.percent}% less`;
	return `${measure.name}: ${formatCompactCount(measure.beforeTokens)} → ${formatCompactCount(measure.afterTokens)} tokens, ${change}`;
}
