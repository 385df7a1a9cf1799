/** A preview's snapshot with every row of both views built (what the tests compare against). */
import { computePreview, type PreviewBase, type PreviewOptions, type PreviewRow, type PreviewSnapshot } from '../../../../src/engine/preview';

export interface SnapshotWithRows extends PreviewSnapshot {
	readonly after: readonly PreviewRow[];
	readonly before: readonly PreviewRow[];
}

export function previewWithRows(base: PreviewBase, options: PreviewOptions): ReturnType<typeof computePreview> & { snapshot: SnapshotWithRows } {
	const computation = computePreview(base, options);
	return { ...computation, snapshot: { ...computation.snapshot, after: computation.rows.all('after'), before: computation.rows.all('before') } };
}
