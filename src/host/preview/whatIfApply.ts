/**
 * The page's Apply of its what-if: the `contextPrune` keys the overrides change, written to Pi's
 * settings.json through the source, and the answer the page shows under the panel.
 */
import { whatIfChanges } from '../../engine/preview';
import { errorMessage } from '../../base/errorMessage';
import type { ToWebview, WhatIfOverrides } from '../../shared/protocol';
import type { ShownSession, SessionFeed } from './sessionFeed';

/** Writes what differs and says so; `keep` holds the overrides until the new settings arrive (then they no longer differ). */
export async function applyWhatIf(session: ShownSession | undefined, overrides: WhatIfOverrides, source: SessionFeed, post: (message: ToWebview) => Promise<unknown>, keep: (overrides: WhatIfOverrides) => void): Promise<void> {
	const changes = session ? whatIfChanges(session.config, overrides) : [];
	if (changes.length === 0) {
		await post({ type: 'applied', ok: true, message: 'Nothing to change: these are the current settings.' });
		return;
	}
	try {
		keep(overrides);
		await source.applyPruneSettings(changes);
		await post({ type: 'applied', ok: true, message: `Written to Pi's settings.json: ${changes.map((c) => `${c.key} = ${JSON.stringify(c.value)}`).join(', ')}.` });
	} catch (error) {
		await post({ type: 'applied', ok: false, message: `Could not write Pi's settings: ${errorMessage(error)}` });
	}
}
