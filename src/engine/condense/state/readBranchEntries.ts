/**
 * Reads the active branch's entries in branch order and feeds pi-condense's to the release's
 * indexer; keeps the last frontier and stats. Entries that cannot be read become diagnostics (the
 * rest of the session still renders). Pure (local state only).
 */
import type { CustomEntry, SessionDiagnostic, SessionEntry } from '../../session/types';
import type { ReleaseRules } from '../../release/releases';
import {
	readChainEntry, readDedupAlias, readFrontier, readIndexEntry, readStats, readSummaryDetails, readToolCallRecord, type ReadResult,
} from '../entryReaders';
import { contentText } from '../occurrence';
import {
	CUSTOM_TYPE_CHAIN, CUSTOM_TYPE_DEDUP_ALIAS, CUSTOM_TYPE_FRONTIER, CUSTOM_TYPE_INDEX, CUSTOM_TYPE_STATS, CUSTOM_TYPE_SUMMARY,
	type PruneFrontier, type SummarizerStats, type ToolCallRecord,
} from '../types';
import { ReleaseIndex } from './releaseIndex';

export type LineOf = (entry: SessionEntry) => number | undefined;

/** One branch's entries, read one at a time (`visit`), root → leaf. */
export class BranchEntryReader {
	readonly index: ReleaseIndex;
	frontier: PruneFrontier | undefined;
	stats: SummarizerStats | undefined;
	readonly diagnostics: SessionDiagnostic[] = [];

	constructor(private readonly rules: ReleaseRules, private readonly lineOf: LineOf) {
		this.index = new ReleaseIndex(rules);
	}

	visit(entry: SessionEntry): void {
		if (entry.type === 'custom_message' && entry.customType === CUSTOM_TYPE_SUMMARY) {
			const details = readSummaryDetails(entry.details);
			if (!details.ok) {
				return this.warn(entry, details.reason);
			}
			const { toolCallRefs, turnIndex, timestamp } = details.value;
			this.index.addSummary(entry.id, contentText(entry.content), toolCallRefs, turnIndex, timestamp);
		} else if (entry.type === 'custom') {
			this.visitCustom(entry);
		}
	}

	private visitCustom(entry: CustomEntry): void {
		switch (entry.customType) {
			case CUSTOM_TYPE_INDEX:
				return this.visitIndex(entry);
			case CUSTOM_TYPE_DEDUP_ALIAS: {
				const read = readDedupAlias(entry.data);
				return read.ok ? this.index.addAlias(read.value, entry.id) : this.warn(entry, read.reason);
			}
			case CUSTOM_TYPE_CHAIN: {
				const read = readChainEntry(entry.data);
				return read.ok ? this.index.addChain(read.value, this.lineOf(entry)) : this.warn(entry, read.reason);
			}
			case CUSTOM_TYPE_FRONTIER:
				this.frontier = this.lastOf(entry, readFrontier(entry.data), this.frontier);
				return undefined;
			case CUSTOM_TYPE_STATS:
				this.stats = this.lastOf(entry, readStats(entry.data), this.stats);
				return undefined;
			default:
				return undefined;
		}
	}

	private visitIndex(entry: CustomEntry): void {
		const read = readIndexEntry(entry.data);
		if (!read.ok) {
			return this.warn(entry, read.reason);
		}
		const records: ToolCallRecord[] = [];
		for (const item of read.value.toolCalls) {
			const record = readToolCallRecord(item);
			if (record.ok) {
				records.push(record.value);
			} else {
				this.warn(entry, record.reason);
			}
		}
		this.index.addIndexEntry(entry.id, records, read.value.backfilled, read.value.refs);
	}

	/** A frontier or stats snapshot: the new value when it reads, else the previous one (and a diagnostic). */
	private lastOf<T>(entry: SessionEntry, read: ReadResult<T>, previous: T | undefined): T | undefined {
		if (read.ok) {
			return read.value;
		}
		this.warn(entry, read.reason);
		return previous;
	}

	private warn(entry: SessionEntry, reason: string): void {
		const label = entry.type === 'custom' || entry.type === 'custom_message' ? entry.customType : entry.type;
		this.diagnostics.push({ severity: 'warning', line: this.lineOf(entry) ?? 0, message: `${label}: ${reason}; skipped` });
	}

	/** The frontier with only the fields this release reads (only 2.4.3 keeps the thinking boundary). */
	knownFrontier(): PruneFrontier | undefined {
		if (!this.frontier || this.frontier.thinkingStripBoundaryTimestamp === undefined || this.rules.thinkingStrip === 'flush-boundary') {
			return this.frontier;
		}
		const { thinkingStripBoundaryTimestamp: _dropped, ...known } = this.frontier;
		return known;
	}
}
