/**
 * The reclaim figure of one session-list row: how much pi-condense's entries take off the context
 * with pruning on. Uses the session's open model when there is one; otherwise reads the file for the
 * measurement and lets it go, and skips files above the size cap.
 */
import type { RenderSettings } from '../settings/readPruneSettings';
import { errorMessage } from '../../base/errorMessage';
import { OpenSession } from './openSession';
import type { SliceRunner } from '../../work';
import type { RowReclaim } from './sessionRows';

export interface RowReclaimOptions {
	readonly maxBytes: number;
	/** The session, when it is open already. */
	readonly openSession?: Promise<OpenSession>;
	/** Stops reading the file (the store is closing). */
	readonly signal?: AbortSignal;
}

export async function measureRowReclaim(work: SliceRunner, path: string, size: number, settings: RenderSettings, options: RowReclaimOptions): Promise<RowReclaim> {
	if (!options.openSession && size > options.maxBytes) {
		return { kind: 'too-large', size };
	}
	try {
		const session = await (options.openSession ?? OpenSession.open(work, path, options.signal === undefined ? {} : { signal: options.signal }));
		// In slices: the list measures sessions in the background while the user works.
		const reclaim = await work.sliced(session.insight(settings).reclaimSteps(), options.signal);
		return reclaim ? { kind: 'measured', ...reclaim } : { kind: 'none' };
	} catch (error) {
		options.signal?.throwIfAborted(); // stopped, not failed
		return { kind: 'failed', message: errorMessage(error) };
	}
}
