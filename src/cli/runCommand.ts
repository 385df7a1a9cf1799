/**
 * Runs one read-only command over a session and returns the text to print.
 */
import {
	buildPrunedTreeSteps, capturePendingBatchesSteps, charsToTokens, EMPTY_TREE_TEXT, formatCompactCount, previewFromStateSteps, recoverOutputs, statsText, summaryNodeLabel,
} from '../engine/condense';
import { pendingEstimateSteps } from '../engine/preview/pendingEstimate';
import { compactableChainsSteps } from '../engine/flush';
import { runSteps } from '../engine/steps';
import { contextBlockLines, contextMetricsForSteps, diagnosticCounts, withFooterSegments } from '../engine/metrics';
import { newerPiSessionText, releaseLine } from '../engine/release';
import { piHome } from '../node/release/resolveRelease';
import type { SessionArgs } from './cliArgs';
import type { CliContext } from './loadRelease';
import type { CliSession } from './cliSession';
import { compactableHint } from './compactableHint';
import { previewText } from './previewText';

/**
 * `status` also says which Pi and pi-condense release are followed and where they were found, when
 * the session was written by a Pi newer than the one this extension knows, what is pending (with the
 * estimate of what `now` reclaims), and the chains left for `compact`.
 */
export async function runCommand(args: SessionArgs, session: CliSession, context: CliContext): Promise<string> {
	const text = await commandText(args, session, context);
	if (args.command !== 'status') {
		return text;
	}
	const left = leftForCompact(session, context);
	const pending = pendingLine(session, context, args.sessionFile);
	const newer = newerPiSessionText(session.model.diagnostics);
	return [text, releaseLine(context.resolution, piHome(process.env)), ...(newer ? [`note: ${newer}`] : []), ...(pending ? [pending] : []), ...(left > 0 ? [compactableHint(left, args.sessionFile)] : [])].join('\n');
}

/** The pending batches as VS Code's tooltip and preview say them, with the estimate and the command that summarizes them. */
function pendingLine(session: CliSession, { config, rules, resolution }: CliContext, sessionFile: string): string | undefined {
	if (resolution.kind !== 'followed') {
		return undefined;
	}
	const pending = runSteps(capturePendingBatchesSteps(session.branch, session.state, config));
	if (pending.length === 0) {
		return undefined;
	}
	const estimate = runSteps(pendingEstimateSteps(pending, session.state, { minBatchChars: config.minBatchChars, summaryDisplay: rules.summaryDisplay, occurrenceKeys: rules.occurrenceKeys }));
	const what = `${estimate.batches} batch${estimate.batches === 1 ? '' : 'es'} pending (${estimate.toolCalls} tool call${estimate.toolCalls === 1 ? '' : 's'}, ${formatCompactCount(estimate.rawChars)} chars of output)`;
	const reclaim = `about ${formatCompactCount(charsToTokens(estimate.reclaimChars))} tokens to reclaim (estimate: summaries at ${Math.round(estimate.summaryRatio * 100)}% of the output, ${estimate.ratioFrom === 'session' ? 'this session\'s ratio so far' : 'a typical ratio'})`;
	return config.enabled ? `${what}: ${reclaim}; run pi-condense now ${sessionFile}` : `${what}; pruning is off (contextPrune.enabled)`;
}

/** With nothing pending, the chains a flush with work would compress that are still raw. */
function leftForCompact(session: CliSession, { config, rules, resolution }: CliContext): number {
	if (resolution.kind !== 'followed' || runSteps(capturePendingBatchesSteps(session.branch, session.state, config)).length > 0) {
		return 0;
	}
	return runSteps(compactableChainsSteps(session.branch, session.messages, session.state, config, rules));
}

/**
 * The footer text as the release shows it once it has loaded and rendered this session (the ON text
 * with its `diag` and metrics segments), then, from 2.7.0 and whether pruning is on or off, the
 * `--- context ---` block of its `/pruner status`.
 */
function statusText(session: CliSession, { config, rules, resolution }: CliContext): string {
	const rendered = renderedFooter(session, config, rules);
	const metrics = resolution.kind === 'followed' ? runSteps(contextMetricsForSteps(session.branch, session.state, config, rules)) : undefined;
	const footer = config.enabled ? withFooterSegments(rendered.statusText, rules, rendered.counts, metrics) : rendered.statusText;
	if (!metrics) {
		return footer;
	}
	// The reload-rearm flag the release sets on loading the session: pruning on and work pending.
	const rearmed = config.enabled && runSteps(capturePendingBatchesSteps(session.branch, session.state, config)).length > 0;
	return [footer, ...contextBlockLines(metrics, rearmed)].join('\n');
}

/**
 * The footer of the rendered context and its diagnostic counts. Only these outlive the render: the
 * rendered context's own objects (stubs, chain blocks, its diagnostics) are garbage before the
 * metrics run, so a collection while they run can take them.
 */
function renderedFooter(session: CliSession, config: CliContext['config'], rules: CliContext['rules']): { statusText: string; counts: ReturnType<typeof diagnosticCounts> } {
	const preview = runSteps(previewFromStateSteps(session.state, session.messages, config, rules));
	return { statusText: preview.statusText, counts: diagnosticCounts(preview.diagnostics) };
}

/** `session` must have been opened with `context.rules` (its state is that release's). */
async function commandText(args: SessionArgs, session: CliSession, context: CliContext): Promise<string> {
	const { config, rules } = context;
	const state = session.state;
	switch (args.command) {
		case 'status':
			return statusText(session, context);
		case 'stats':
			return statsText(state.stats);
		case 'tree': {
			const roots = runSteps(buildPrunedTreeSteps(state));
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
			const preview = runSteps(previewFromStateSteps(state, session.messages, config, rules));
			return args.json ? JSON.stringify(preview.after, null, 2) : previewText(preview);
		}
		case 'query':
			return (await recoverOutputs(state, args.refs, session.blobs)).text;
		case 'now':
		case 'compact':
			throw new Error(`${args.command} writes to the session: run it through runFlushCommand`);
		case 'costs':
			throw new Error('costs reads its session itself: run it through runCostsCommand');
		case 'list':
			throw new Error('list names no session: the command line runs it before opening one');
	}
}
