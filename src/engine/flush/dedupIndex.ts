/**
 * The content-hash lookup of the dedup pass: hash → the first indexed tool call with that content
 * (first-seen wins, as pi-condense's indexer). Built from the records already on the branch; a
 * flush adds only its spilled records (pi-condense spills at `turn_end`, before any flush, so they
 * are "already indexed" for later calls). Summaries of the same flush never count: dedup is
 * cross-flush only. Pure (local state).
 */
import type { CondenseState } from '../condense/state/condenseState';
import type { ToolCallRecord } from '../condense/types';
import { recordHash, toolResultHash, type ContentHasher } from './contentHash';

export class DedupIndex {
	private originalsByKey: Map<string, string> | undefined;

	/** Hashing every indexed record is deferred until the first lookup (many flushes need none). */
	constructor(private readonly hash: ContentHasher, private readonly state: CondenseState) {}

	/** Hash of a call's (name, text). */
	keyOf(toolName: string, resultText: string): string {
		return toolResultHash(this.hash, toolName, resultText);
	}

	/** The original's id when this content is already indexed under another id. */
	originalFor(toolCallId: string, contentKey: string): string | undefined {
		const original = this.originals().get(contentKey);
		return original !== undefined && original !== toolCallId ? original : undefined;
	}

	add(record: ToolCallRecord): void {
		const originals = this.originals();
		const key = recordHash(this.hash, record);
		if (!originals.has(key)) {
			originals.set(key, record.toolCallId);
		}
	}

	private originals(): Map<string, string> {
		if (!this.originalsByKey) {
			this.originalsByKey = new Map();
			for (const occurrence of this.state.records.values()) {
				const key = recordHash(this.hash, occurrence.record);
				if (!this.originalsByKey.has(key)) {
					this.originalsByKey.set(key, occurrence.record.toolCallId);
				}
			}
		}
		return this.originalsByKey;
	}
}
