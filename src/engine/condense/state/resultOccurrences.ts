/**
 * The tool results seen so far while walking a branch, and which of them pi-condense's entries
 * have claimed. Lets an index or alias entry that names a bare id be bound to the one result
 * occurrence it was written for, even when the provider reused the id. Pure (local state only).
 */
import { occurrenceKey } from '../occurrence';
import type { ToolCallRecord } from '../types';

interface SeenResult {
	readonly key: string;
	readonly timestamp: number;
	/** Index (0-based, over every assistant message on the branch) of the assistant before it. */
	readonly turnIndex: number;
	claimed: boolean;
}

export interface ClaimedOccurrence {
	readonly key: string;
	readonly resultTimestamp: number;
}

export class ResultOccurrences {
	private readonly seen = new Map<string, SeenResult[]>();

	add(toolCallId: string, timestamp: number, turnIndex: number): void {
		const list = this.seen.get(toolCallId) ?? [];
		list.push({ key: occurrenceKey(toolCallId, timestamp), timestamp, turnIndex, claimed: false });
		this.seen.set(toolCallId, list);
	}

	/**
	 * Binds an index record to a result. Among unclaimed results of its id, the one from the
	 * record's turn wins (branch rescans count turns like we do), then the one whose timestamp is
	 * the record's (eager spills stamp the result's time), then the latest.
	 */
	claimForRecord(record: ToolCallRecord): ClaimedOccurrence | undefined {
		const unclaimed = this.unclaimed(record.toolCallId);
		const pick = unclaimed.length === 1
			? unclaimed[0]
			: unclaimed.find((r) => r.turnIndex === record.turnIndex)
				?? unclaimed.find((r) => r.timestamp === record.timestamp)
				?? unclaimed[unclaimed.length - 1];
		return this.claim(pick ?? this.latest(record.toolCallId));
	}

	/** Binds a dedup alias to the latest unclaimed result of its id. */
	claimForAlias(toolCallId: string): ClaimedOccurrence | undefined {
		const unclaimed = this.unclaimed(toolCallId);
		return this.claim(unclaimed[unclaimed.length - 1] ?? this.latest(toolCallId));
	}

	/** Keys of the results of `toolCallId` seen so far whose timestamp is at least `since`. */
	keysSince(toolCallId: string, since: number): string[] {
		return (this.seen.get(toolCallId) ?? []).filter((r) => r.timestamp >= since).map((r) => r.key);
	}

	private unclaimed(toolCallId: string): SeenResult[] {
		return (this.seen.get(toolCallId) ?? []).filter((r) => !r.claimed);
	}

	private latest(toolCallId: string): SeenResult | undefined {
		const list = this.seen.get(toolCallId);
		return list?.[list.length - 1];
	}

	private claim(result: SeenResult | undefined): ClaimedOccurrence | undefined {
		if (!result) {
			return undefined;
		}
		result.claimed = true;
		return { key: result.key, resultTimestamp: result.timestamp };
	}
}
