/**
 * The refs of a per-batch summary message in the context, read from its `details` as the chain
 * phase reads them (`toolCallRefs` only; items without a string `toolCallId` are skipped). Pure.
 */
import { isJsonObject } from '../valueGuards';

export interface DetailRef {
	readonly toolCallId: string;
	readonly resultTimestamp: number | undefined;
}

export function summaryDetailRefs(details: unknown): DetailRef[] {
	if (!isJsonObject(details) || !Array.isArray(details.toolCallRefs)) {
		return [];
	}
	const refs: DetailRef[] = [];
	for (const ref of details.toolCallRefs) {
		if (isJsonObject(ref) && typeof ref.toolCallId === 'string') {
			refs.push({ toolCallId: ref.toolCallId, resultTimestamp: typeof ref.resultTimestamp === 'number' ? ref.resultTimestamp : undefined });
		}
	}
	return refs;
}
