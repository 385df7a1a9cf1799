/**
 * The one answer every surface gives to "does pi-condense prune what Pi sends?", and the words each
 * surface says it in: the status bar, its tooltip, the preview's header and the session rows read
 * the state from here, so they cannot disagree. Three states: pi-condense is not installed in Pi
 * (Pi sends the whole context, whatever `contextPrune` says), installed with pruning off, or
 * installed and on. "No session selected" is not a state of pruning: the surfaces then show the
 * state of the workspace's project (or of the user's Pi), resolved at activation. Pure.
 */
import type { ReleaseResolution } from '../release';

export type PruneState = 'on' | 'off' | 'not-installed';

/** What is known of a session's (or the workspace's) settings: which pi-condense, and `contextPrune.enabled`. */
export interface PruneStateInputs {
	readonly resolution: Pick<ReleaseResolution, 'kind'>;
	readonly configured: { readonly enabled: boolean };
}

export function pruneStateOf({ resolution, configured }: PruneStateInputs): PruneState {
	if (resolution.kind === 'not-installed') {
		return 'not-installed';
	}
	return configured.enabled ? 'on' : 'off';
}

/** The tooltip's and the rows' headline: `pruning on`, `pruning off`, `pi-condense not installed`. */
export function pruneHeadline(state: PruneState): string {
	switch (state) {
		case 'on':
			return 'pruning on';
		case 'off':
			return 'pruning off';
		case 'not-installed':
			return 'pi-condense not installed';
	}
}

/**
 * What a reclaim figure is conditional on: nothing when pruning is on (it is what is sent), else
 * what would have to change for the model to be sent the smaller context.
 */
export function reclaimCondition(state: PruneState): string {
	switch (state) {
		case 'on':
			return '';
		case 'off':
			return ' if on';
		case 'not-installed':
			return ' if installed';
	}
}

/** One sentence for a tooltip: what the model is sent in this state. */
export function sentSentence(state: PruneState): string {
	switch (state) {
		case 'on':
			return 'The model is sent the pruned context.';
		case 'off':
			return 'Pruning is off in Pi\'s settings (contextPrune.enabled): the model is sent the whole context.';
		case 'not-installed':
			return 'Pi has no pi-condense: the model is sent the whole context and nothing is pruned.';
	}
}
