/**
 * Token bars by category, before and after pruning, and the totals with the reclaim figure, as
 * `/dcp context` shows them. Pure. Tokens are pi-condense's estimate: serialized characters / 4.
 */
import { charsToTokens } from '../condense/measure/compactFormat';
import { reductionPercent, type LiveReclaim } from '../condense/measure/statusText';
import type { ContextBreakdown } from '../condense/measure/contextSize';
import type { BarCategory, TokenBar, TokenTotals } from './snapshotTypes';

const BAR_LABELS: readonly (readonly [BarCategory, string])[] = [
	['system', 'System prompt'],
	['user', 'User'],
	['assistantText', 'Assistant text'],
	['thinking', 'Thinking'],
	['toolCalls', 'Tool calls'],
	['toolResults', 'Tool results'],
	['summaries', 'Summaries'],
	['compressedChains', 'Compressed chains'],
	['other', 'Other (envelopes)'],
];

/** The bars by category; the system prompt's only for a context that has one (Pi 1.x). */
export function tokenBars(before: ContextBreakdown, after: ContextBreakdown): TokenBar[] {
	const shown = before.system > 0 || after.system > 0 ? BAR_LABELS : BAR_LABELS.filter(([category]) => category !== 'system');
	return shown.map(([category, label]) => ({
		category,
		label,
		beforeTokens: charsToTokens(before[category]),
		afterTokens: charsToTokens(after[category]),
	}));
}

/** The totals of the whole request (`before`, `after`) with pi-condense's own measure of the conversation (`conversation`, in chars). */
export function tokenTotals(before: ContextBreakdown, after: ContextBreakdown, beforeMessages: number, afterMessages: number, conversation: LiveReclaim): TokenTotals {
	const beforeTokens = charsToTokens(before.total);
	const afterTokens = charsToTokens(after.total);
	const conversationBefore = charsToTokens(conversation.beforeChars);
	const conversationAfter = charsToTokens(conversation.afterChars);
	return {
		conversation: { beforeTokens: conversationBefore, afterTokens: conversationAfter, percent: reductionPercent(conversationBefore, conversationAfter) },
		beforeTokens,
		afterTokens,
		reclaimedTokens: Math.max(0, beforeTokens - afterTokens),
		reclaimPercent: reductionPercent(beforeTokens, afterTokens),
		beforeMessages,
		afterMessages,
	};
}
