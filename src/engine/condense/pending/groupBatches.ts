/**
 * Batching modes. `turn`: one batch per assistant message with results. `agent-message`:
 * consecutive batches of the same user turn merge into one (texts joined by a blank line, calls
 * concatenated, turn index and timestamp of the last). Pure.
 */
import type { BatchingMode } from '../../config/types';
import type { PendingBatch } from './pendingTypes';

export function groupBatches(batches: readonly PendingBatch[], mode: BatchingMode): readonly PendingBatch[] {
	if (mode !== 'agent-message') {
		return batches;
	}
	const out: PendingBatch[] = [];
	for (const batch of batches) {
		const last = out[out.length - 1];
		if (last && last.userTurnGroup === batch.userTurnGroup) {
			out[out.length - 1] = {
				turnIndex: batch.turnIndex,
				timestamp: batch.timestamp,
				assistantText: [last.assistantText, batch.assistantText].filter((text) => text !== '').join('\n\n'),
				toolCalls: [...last.toolCalls, ...batch.toolCalls],
				userTurnGroup: batch.userTurnGroup,
				rawChars: last.rawChars + batch.rawChars,
			};
		} else {
			out.push(batch);
		}
	}
	return out;
}
