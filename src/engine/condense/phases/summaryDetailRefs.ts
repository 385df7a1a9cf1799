import { isPlainObject } from '../../../base/plainObject';
/**
 * The refs of a per-batch summary message in the context, read from its `details` as the chain
 * phase reads them (`toolCallRefs` only; items without a string `toolCallId` are skipped). Pure.
 */

export interface DetailRef {
	readonly toolCallId: string;
	readonly resultTimestamp: number | undefined;
}

export function summaryDetailRefs(details: unknown): DetailRef[] {
	if (!isPlainObject(details) || !Array.isArray(details.toolCallRefs)) {
		return [];
	}
	const refs: DetailRef[] = [];
	for (const ref of details.toolCallRefs) {
		if (isPlainObject(ref) && typeof ref.toolCallId === 'string') {
			refs.push({ toolCallId: ref.toolCallId, resultTimestamp: typeof ref.resultTimestamp === 'number' ? ref.resultTimestamp : undefined });
		}
	}
	return refs;
}
