/**
 * What a render reports besides the messages: the diagnostics the release itself reports (2.6.0+,
 * persisted by pi-condense as `context-prune-diagnostic` entries), and warnings about the release's
 * defects that change what is sent. Types and small pure helpers.
 */
import type { ReleaseVersion } from '../../release/releases';

/** A diagnostic exactly as the release reports it: kind, detail text and in-memory dedup key. */
export type ReleaseDiagnostic =
	| {
		readonly kind: 'unresolved-range' | 'range-id-mismatch';
		readonly dedupKey: string;
		readonly detail: string;
		/** 1-based line of the chain entry in the session file, when known (ours, not the release's). */
		readonly line?: number;
	}
	| {
		readonly kind: 'orphan-sweep';
		/** Every swept id (duplicates kept), in UTF-16 order: its dedup key is a hash of them. */
		readonly sweptIds: readonly string[];
		readonly detail: string;
	};

export type DefectKind =
	/** 2.0.0–2.5.x: a compressed chain's ids, reused by a live turn, drop that live turn. */
	| 'chain-drops-live-turn'
	/** A tool result whose call is not open before it: the provider rejects the request. */
	| 'orphan-tool-result'
	/** A tool call that lost its result: Pi answers it with a synthetic error result. */
	| 'orphan-tool-call';

/** A defect of the release that changes what is sent, in words the user can act on. */
export interface DefectWarning {
	readonly kind: DefectKind;
	/** The release that has the defect. */
	readonly release: ReleaseVersion;
	/** The first release without it; undefined when none fixes it. */
	readonly fixedIn: ReleaseVersion | undefined;
	readonly toolCallIds: readonly string[];
	/** What happens, what the provider does about it, and the release that fixes it. */
	readonly message: string;
}

export interface RenderReporter {
	readonly diagnostic?: (diagnostic: ReleaseDiagnostic) => void;
	/** Given only when the caller shows warnings: finding them costs a pass over the result. */
	readonly warning?: (warning: DefectWarning) => void;
}

export const NO_REPORTS: RenderReporter = {};

/** Up to `max` ids joined with `, `, and how many more there are. */
export function idList(ids: readonly string[], max = 5): string {
	const shown = ids.slice(0, max).join(', ');
	return ids.length > max ? `${shown} … (+${ids.length - max} more)` : shown;
}
