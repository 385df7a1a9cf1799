/**
 * Runs one read-only command over a session and returns the text to print.
 */
import {
	buildPrunedTree, EMPTY_TREE_TEXT, previewFromState, recoverOutputs, statsText, summaryNodeLabel,
} from '../engine/condense';
import { releaseLine } from '../engine/release';
import { piHome } from '../node/release/resolveRelease';
import type { CliArgs } from './cliArgs';
import type { CliContext } from './loadRelease';
import type { OpenedSession } from './openSession';
import { previewText } from './previewText';

/** `status` also says which pi-condense release is followed and where it was found. */
export async function runCommand(args: CliArgs, session: OpenedSession, context: CliContext): Promise<string> {
	const text = await commandText(args, session, context);
	return args.command === 'status' ? `${text}\n${releaseLine(context.release, piHome(process.env))}` : text;
}

/** `session` must have been opened with `context.rules` (its state is that release's). */
async function commandText(args: CliArgs, session: OpenedSession, { config, rules }: CliContext): Promise<string> {
	const state = session.state;
	switch (args.command) {
		case 'status':
			return previewFromState(state, session.messages, config, rules).statusText;
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
			const preview = previewFromState(state, session.messages, config, rules);
			return args.json ? JSON.stringify(preview.after, null, 2) : previewText(preview);
		}
		case 'query':
			return (await recoverOutputs(state, args.refs, session.blobs)).text;
		case 'now':
		case 'compact':
			throw new Error(`${args.command} writes to the session: run it through runFlushCommand`);
	}
}
