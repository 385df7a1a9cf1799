/**
 * pi-condense 2.4.3's thinking-strip boundary, computed by a flush that processed a batch and
 * stored on its frontier (`thinkingStripBoundaryTimestamp`); no other release writes it. Pure.
 *
 * The assistant messages of the branch give their numeric timestamps; with more than
 * `keep = max(1, keepLastTurns)` of them the candidate is the `keep`-th newest, and the boundary
 * only moves forward (`max(previous, candidate)`). With fewer, or with the strip disabled, the
 * previous boundary is kept (undefined: none is written).
 */
import type { ThinkingStripConfig } from '../config/types';
import type { ReleaseRules } from '../release/releases';
import type { SessionEntry } from '../session/types';

export function thinkingStripBoundary(
	branch: readonly SessionEntry[],
	previous: number | undefined,
	strip: ThinkingStripConfig | undefined,
	rules: ReleaseRules,
): number | undefined {
	if (rules.thinkingStrip !== 'flush-boundary' || !strip?.enabled) {
		return rules.thinkingStrip === 'flush-boundary' ? previous : undefined;
	}
	const timestamps: number[] = [];
	for (const entry of branch) {
		if (entry.type === 'message' && entry.message.role === 'assistant' && typeof entry.message.timestamp === 'number') {
			timestamps.push(entry.message.timestamp);
		}
	}
	const keep = Math.max(1, strip.keepLastTurns);
	const candidate = timestamps.length > keep ? timestamps[timestamps.length - keep] : undefined;
	if (candidate === undefined) {
		return previous;
	}
	return Math.max(previous ?? candidate, candidate);
}
