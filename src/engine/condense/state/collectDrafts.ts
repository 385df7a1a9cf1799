/**
 * Walks the active branch once and collects pi-condense's entries as drafts, binding index and
 * alias entries to the tool result occurrences they were written for. Pure.
 */
import type { CustomEntry, SessionEntry } from '../../session/types';
import {
	readChainEntry, readDedupAlias, readFrontier, readIndexRecords, readStats, readSummaryDetails, readToolCallRecord, type ReadResult,
} from '../entryReaders';
import { contentText } from '../occurrence';
import {
	CUSTOM_TYPE_CHAIN, CUSTOM_TYPE_DEDUP_ALIAS, CUSTOM_TYPE_FRONTIER, CUSTOM_TYPE_INDEX, CUSTOM_TYPE_STATS, CUSTOM_TYPE_SUMMARY,
} from '../types';
import { ResultOccurrences } from './resultOccurrences';
import { emptyDrafts, type StateDrafts } from './stateDrafts';

export type LineOf = (entry: SessionEntry) => number | undefined;

class DraftCollector {
	readonly drafts = emptyDrafts();
	private readonly results = new ResultOccurrences();
	private turnIndex = -1;

	constructor(private readonly lineOf: LineOf) {}

	visit(entry: SessionEntry, position: number): void {
		if (entry.type === 'message') {
			const message = entry.message;
			if (message.role === 'assistant') {
				this.turnIndex++;
			} else if (message.role === 'toolResult') {
				this.results.add(message.toolCallId, message.timestamp, this.turnIndex);
			}
		} else if (entry.type === 'custom_message' && entry.customType === CUSTOM_TYPE_SUMMARY) {
			const details = readSummaryDetails(entry.details);
			if (details.ok) {
				this.drafts.summaries.push({ entryId: entry.id, position, text: contentText(entry.content), details: details.value });
			} else {
				this.warn(entry, details.reason);
			}
		} else if (entry.type === 'custom') {
			this.visitCustom(entry, position);
		}
	}

	private visitCustom(entry: CustomEntry, position: number): void {
		switch (entry.customType) {
			case CUSTOM_TYPE_INDEX:
				this.visitIndex(entry, position);
				break;
			case CUSTOM_TYPE_DEDUP_ALIAS:
				this.visitAlias(entry);
				break;
			case CUSTOM_TYPE_CHAIN:
				this.visitChain(entry);
				break;
			case CUSTOM_TYPE_FRONTIER:
				this.drafts.frontier = this.lastOf(entry, readFrontier(entry.data), this.drafts.frontier);
				break;
			case CUSTOM_TYPE_STATS:
				this.drafts.stats = this.lastOf(entry, readStats(entry.data), this.drafts.stats);
				break;
			default:
				break;
		}
	}

	private visitIndex(entry: CustomEntry, position: number): void {
		const items = readIndexRecords(entry.data);
		if (!items.ok) {
			return this.warn(entry, items.reason);
		}
		for (const item of items.value) {
			const read = readToolCallRecord(item);
			if (!read.ok) {
				this.warn(entry, read.reason);
				continue;
			}
			const record = read.value;
			const claimed = this.results.claimForRecord(record);
			if (!claimed) {
				this.warn(entry, `no tool result for ${record.toolCallId} precedes its index entry; kept under its bare id`, false);
			}
			const draft = {
				key: claimed?.key ?? record.toolCallId,
				record,
				resultTimestamp: claimed?.resultTimestamp,
				entryId: entry.id,
				position,
				shortRef: undefined,
			};
			this.drafts.records.push(draft);
			const sameId = this.drafts.recordsById.get(record.toolCallId) ?? [];
			sameId.push(draft);
			this.drafts.recordsById.set(record.toolCallId, sameId);
		}
	}

	private visitAlias(entry: CustomEntry): void {
		const read = readDedupAlias(entry.data);
		if (!read.ok) {
			return this.warn(entry, read.reason);
		}
		const { newToolCallId, originalToolCallId } = read.value;
		const claimed = this.results.claimForAlias(newToolCallId);
		const original = this.drafts.recordsById.get(originalToolCallId)?.at(-1);
		if (!original) {
			this.warn(entry, `dedup alias ${newToolCallId} points at ${originalToolCallId}, which is not indexed before it`, false);
		}
		this.drafts.aliases.push({
			key: claimed?.key ?? newToolCallId,
			toolCallId: newToolCallId,
			resultTimestamp: claimed?.resultTimestamp,
			originalToolCallId,
			original,
			entryId: entry.id,
		});
	}

	private visitChain(entry: CustomEntry): void {
		const read = readChainEntry(entry.data);
		if (!read.ok) {
			return this.warn(entry, read.reason);
		}
		const chain = read.value;
		const droppedKeys = new Set<string>();
		for (const id of chain.droppedToolCallIds) {
			for (const key of this.results.keysSince(id, chain.startUserTimestamp)) {
				droppedKeys.add(key);
			}
		}
		const line = this.lineOf(entry);
		this.drafts.chains.push(line === undefined ? { entry: chain, droppedKeys } : { entry: chain, droppedKeys, line });
	}

	/** A snapshot entry: the new value when it reads, else the previous one (and a diagnostic). */
	private lastOf<T>(entry: SessionEntry, read: ReadResult<T>, previous: T | undefined): T | undefined {
		if (read.ok) {
			return read.value;
		}
		this.warn(entry, read.reason);
		return previous;
	}

	private warn(entry: SessionEntry, reason: string, skipped = true): void {
		const label = entry.type === 'custom' || entry.type === 'custom_message' ? entry.customType : entry.type;
		const message = `${label}: ${reason}${skipped ? '; skipped' : ''}`;
		this.drafts.diagnostics.push({ severity: 'warning', line: this.lineOf(entry) ?? 0, message });
	}
}

/** Collects the drafts of one branch (root → leaf). */
export function collectDrafts(branch: readonly SessionEntry[], lineOf: LineOf): StateDrafts {
	const collector = new DraftCollector(lineOf);
	branch.forEach((entry, position) => collector.visit(entry, position));
	return collector.drafts;
}
