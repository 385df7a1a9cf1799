/**
 * Runs one read-only command over a session and returns the text to print. Every value it prints is
 * the session's insight (`CliSession.insight`), as the extension's views read it.
 */
import { EMPTY_TREE_TEXT, recoverOutputs, statsText, summaryNodeLabel } from '../engine/condense';
import { runSteps } from '../engine/steps';
import { contextBlockLines, withFooterSegments } from '../engine/metrics';
import { newerPiSessionText, releaseLine } from '../engine/release';
import { pendingWork, type SessionInsight } from '../engine/views';
import { sha1Hex } from '../node/flush/sha1Hasher';
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
	const followed = context.resolution.kind === 'followed';
	const left = followed ? runSteps(session.insight.compactableChainsSteps()) : 0;
	const pending = followed ? await pendingLine(session.insight, args.sessionFile) : undefined;
	const newer = newerPiSessionText(session.model.diagnostics);
	return [text, releaseLine(context.resolution, piHome(process.env)), ...(newer ? [`note: ${newer}`] : []), ...(pending ? [pending] : []), ...(left > 0 ? [compactableHint(left, args.sessionFile)] : [])].join('\n');
}

/**
 * The pending batches as VS Code's preview and confirmation say them: what Summarize now would do
 * (a dry run of the flush) and reclaim, and the command that does it.
 */
async function pendingLine(insight: SessionInsight, sessionFile: string): Promise<string | undefined> {
	if (runSteps(insight.pendingSteps()).length === 0) {
		return undefined;
	}
	if (!insight.config.enabled) {
		return `${runSteps(insight.pendingSteps()).length} batches pending; pruning is off (contextPrune.enabled)`;
	}
	const work = pendingWork(await insight.flushEstimate('now', { hash: sha1Hex }, Date.now()), insight.rules.version);
	return work && `${work.pendingText}: ${work.planText}, reclaiming ${work.reclaimText} (${work.changeText}); run pi-condense now ${sessionFile}`;
}

/**
 * The footer text as the release shows it once it has loaded and rendered this session (the ON text
 * with its `diag` and metrics segments), then, from 2.7.0 and whether pruning is on or off, the
 * `--- context ---` block of its `/pruner status`. The footer comes first: the render made for it
 * is let go before the metrics run (`SessionInsight.footerSteps`).
 */
function statusText(insight: SessionInsight, { resolution }: CliContext): string {
	const rendered = runSteps(insight.footerSteps());
	const metrics = resolution.kind === 'followed' ? runSteps(insight.metricsSteps()) : undefined;
	const footer = insight.config.enabled ? withFooterSegments(rendered.statusText, insight.rules, rendered.counts, metrics) : rendered.statusText;
	return metrics ? [footer, ...contextBlockLines(metrics, runSteps(insight.rearmedSteps()))].join('\n') : footer;
}

/** `session` must have been read with `context.config` and `context.rules` (its insight is theirs). */
async function commandText(args: SessionArgs, session: CliSession, context: CliContext): Promise<string> {
	const insight = session.insight;
	switch (args.command) {
		case 'status':
			return statusText(insight, context);
		case 'stats':
			return statsText(runSteps(insight.stateSteps()).stats);
		case 'tree': {
			const roots = runSteps(insight.treeSteps());
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
				return JSON.stringify(runSteps(insight.contextSteps()).messages, null, 2);
			}
			const preview = runSteps(insight.previewSteps());
			return args.json ? JSON.stringify(preview.after, null, 2) : previewText(preview);
		}
		case 'query':
			return (await recoverOutputs(runSteps(insight.stateSteps()), args.refs, session.blobs)).text;
		case 'now':
		case 'compact':
			throw new Error(`${args.command} writes to the session: run it through runFlushCommand`);
		case 'costs':
			throw new Error('costs reads its session itself: run it through runCostsCommand');
		case 'list':
			throw new Error('list names no session: the command line runs it before opening one');
	}
}
