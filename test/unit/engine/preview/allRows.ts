/** A preview's snapshot with every row of both views built (what the tests compare against). */
import { computePreviewSteps, type PreviewBase, type PreviewComputation, type PreviewOptions, type PreviewRow, type PreviewSnapshot } from '../../../../src/engine/preview';
import { runSteps } from '../../../../src/engine/steps';

export interface SnapshotWithRows extends PreviewSnapshot {
	readonly after: readonly PreviewRow[];
	readonly before: readonly PreviewRow[];
}

export function previewWithRows(base: PreviewBase, options: PreviewOptions): PreviewComputation & { snapshot: SnapshotWithRows } {
	const computation = runSteps(computePreviewSteps(base, options));
	return { ...computation, snapshot: { ...computation.snapshot, after: computation.rows.all('after'), before: computation.rows.all('before') } };
}
