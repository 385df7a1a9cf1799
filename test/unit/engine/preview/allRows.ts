/** A preview's snapshot with every row of both views built (what the tests compare against). */
import { computePreviewSteps, type SnapshotBase, type WhatIfResult, type WhatIfOptions, type PreviewRow, type PageFigures } from '../../../../src/engine/preview';
import { runSteps } from '../../../../src/engine/steps';

export interface SnapshotWithRows extends PageFigures {
	readonly after: readonly PreviewRow[];
	readonly before: readonly PreviewRow[];
}

export function previewWithRows(base: SnapshotBase, options: WhatIfOptions): WhatIfResult & { snapshot: SnapshotWithRows } {
	const computation = runSteps(computePreviewSteps(base, options));
	return { ...computation, snapshot: { ...computation.snapshot, after: computation.rows.all('after'), before: computation.rows.all('before') } };
}
