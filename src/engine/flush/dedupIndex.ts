/**
 * The content-hash lookup of the pre-flush dedup pass, as the user's release rebuilds it: hash →
 * the key of the first record indexed with that content (first seen wins, records a later one
 * replaced included), keyed by the release's keys (bare ids up to 2.5.0, `id@resultTimestamp`
 * from 2.6.0). A record's hash is its stored `contentHash` when it has one. From 2.9.0, backfilled
 * records never become canonicals. Only records already on the branch count: summaries of the
 * same flush are indexed after the pass, so dedup is cross-flush only. Pure (local state).
 */
import type { CondenseState } from '../condense/state/condenseState';
import type { ReleaseRules } from '../release/releases';
import { recordHash, toolResultHash, type ContentHasher } from './contentHash';

export class DedupIndex {
	private originalsByHash: Map<string, string> | undefined;

	/** Hashing every indexed record is deferred until the first lookup (many flushes need none). */
	constructor(private readonly hash: ContentHasher, private readonly state: CondenseState, private readonly rules: ReleaseRules) {}

	/** Hash of a call's (name, text). */
	keyOf(toolName: string, resultText: string): string {
		return toolResultHash(this.hash, toolName, resultText);
	}

	/**
	 * The original's key when this call's content is already indexed under another key. The test
	 * is `original !== key of the new call`, so a repeat under a reused id is aliased from 2.6.0
	 * (the keys differ by timestamp) and never to itself. With nothing indexed, nothing is hashed
	 * (a first flush of a large session would hash every result for nothing).
	 */
	originalFor(call: { readonly key: string; readonly toolName: string; readonly resultText: string }): string | undefined {
		const originals = this.originals();
		if (originals.size === 0) {
			return undefined;
		}
		const original = originals.get(this.keyOf(call.toolName, call.resultText));
		return original !== undefined && original !== call.key ? original : undefined;
	}

	private originals(): Map<string, string> {
		if (!this.originalsByHash) {
			const skipBackfilled = this.rules.deterministicChains;
			this.originalsByHash = new Map();
			for (const { key, record, backfilled } of this.state.indexedInOrder) {
				if (backfilled && skipBackfilled) {
					continue;
				}
				const hash = recordHash(this.hash, record);
				if (!this.originalsByHash.has(hash)) {
					this.originalsByHash.set(hash, key);
				}
			}
		}
		return this.originalsByHash;
	}
}
