/**
 * The page's requests answered from the computation alone: a window of rows, a row's detail, a
 * search. The preview host decides what waits in its queue; these hold no state of their own.
 */
import type { FromWebview, ViewName } from '../../shared/protocol';
import type { PageHostOptions } from './pageHostOptions';
import type { WhatIfComputer } from './whatIfComputer';

/** What answering about rows takes of the preview host's options. */
type RowRequestOptions = Pick<PageHostOptions, 'work' | 'post'>;

/**
 * Answers a request for rows from the computation the page holds; a request for an older one is
 * dropped (a new snapshot is on its way, and the page asks again from it). Not queued: it is a
 * bounded window, built in slices, and waiting behind a recomputation would only make it stale.
 */
export async function answerRows(computer: WhatIfComputer, options: RowRequestOptions, request: Extract<FromWebview, { type: 'rows' }>): Promise<void> {
	const rows = computer.rows;
	if (rows?.id !== request.snapshotId) {
		return;
	}
	const window = await options.work.sliced(rows.rangeSteps(request.view, request.start, request.end));
	await options.post({ type: 'rows', requestId: request.requestId, window });
}

/** Posts an expanded row's detail (nothing when the row is gone). */
export async function answerRowDetail(computer: WhatIfComputer, options: RowRequestOptions, requestId: number, view: ViewName, key: string): Promise<void> {
	const detail = await computer.rowDetail(view, key);
	if (detail) {
		await options.post({ type: 'rowDetail', requestId, view, key, ...detail });
	}
}

/** Posts where the query occurs in a view. */
export async function answerSearch(computer: WhatIfComputer, options: RowRequestOptions, request: Extract<FromWebview, { type: 'search' }>): Promise<void> {
	const result = await computer.search(request.view, request.query);
	await options.post({ type: 'searchResults', requestId: request.requestId, view: request.view, query: request.query, hits: result.hits, capped: result.capped });
}
