/**
 * Runs one read-only command over a session and returns the text to print.
 */
import {
	buildPrunedTree, EMPTY_TREE_TEXT, previewFromState, recoverOutputs, statsText, summaryNodeLabel,
} from '../engine/condense';
import type { ContextPruneConfig } from '../engine/config/types';
import type { ReleaseRules } from '../engine/release/releases';
import type { CliArgs } from './cliArgs';
import type { OpenedSession } from './openSession';
import { previewText } from './previewText';

/** `session` must have been opened for `release` (its state is that release's). */
export async function runCommand(args: CliArgs, session: OpenedSession, config: ContextPruneConfig, release: ReleaseRules): Promise<string> {
	const state = session.state;
	switch (args.command) {
		case 'status':
			return previewFromState(state, session.messages, config, release).statusText;
		case 'stats':
			return statsText(state.stats);
		case 'tree': {
			const roots = buildPrunedTree(state);
			if (roots.length === 0) {
				return EMPTY_TREE_TEXT;
			}
			return roots.flatMap((root) => [
				summaryNodeLabel(root, (ms) => new Date(ms).toLocaleString()),
				...root.children.map((child) => `  ${child.label}`),
			]).join('\n');
		}
		case 'preview': {
			if (args.json && args.before) {
				return JSON.stringify(session.messages, null, 2);
			}
			const preview = previewFromState(state, session.messages, config, release);
			return args.json ? JSON.stringify(preview.after, null, 2) : previewText(preview);
		}
		case 'query':
			return (await recoverOutputs(state, args.refs, session.blobs)).text;
		case 'now':
		case 'compact':
			throw new Error(`${args.command} writes to the session: run it through runFlushCommand`);
	}
}
