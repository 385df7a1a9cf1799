/**
 * `pi-condense costs <session> [--json]`: a session's spend, cache rebuilds and each prune's account,
 * then its timeline. The session is read as the other commands read it; pi-condense's entries as the
 * followed release reads them.
 */
import { runSteps } from '../engine/steps';
import { CostsLedger, sessionCostsSteps, verdictText, type SessionCosts } from '../engine/costs';
import { catalogPrices, unpricedModelsSteps } from './catalogPrices';
import type { SessionArgs } from './cliArgs';
import { readCliModel } from './cliSession';
import { cliWork } from './cliWork';
import type { CliContext } from './loadRelease';
import { accountLines, summaryLines, timelineLines } from './costsText';
import { describeSessionProblems } from './sessionProblems';
import type { SessionModel } from '../engine/session';

export async function sessionCosts(path: string, context: Pick<CliContext, 'config' | 'rules'>, agentDir: string | undefined, warn: (text: string) => void): Promise<{ model: SessionModel; costs: SessionCosts }> {
	const model = await readCliModel(cliWork, path);
	for (const line of describeSessionProblems(path, model.diagnostics)) {
		warn(line);
	}
	// One pass over the entries: the ledger names the models to price, then the accounts read from it.
	const ledger = runSteps(CostsLedger.empty().extendSteps(model.entries));
	const prices = await catalogPrices(runSteps(unpricedModelsSteps(ledger.timeline().requests)), agentDir, warn);
	return { model, costs: runSteps(sessionCostsSteps({ model, rules: context.rules, config: context.config, prices, ledger })) };
}

export async function runCostsCommand(args: SessionArgs, context: CliContext): Promise<string> {
	const warn = (text: string): void => void process.stderr.write(`pi-condense: ${text}\n`);
	const { costs } = await sessionCosts(args.sessionFile, context, args.agentDir, warn);
	if (args.json) {
		return JSON.stringify(costsJson(args.sessionFile, costs), null, 2);
	}
	return [
		args.sessionFile,
		...summaryLines(costs.summary),
		...(costs.accounts.length > 0 ? ['', 'Prunes:', ...accountLines(costs.accounts)] : []),
		'',
		'Timeline:',
		...timelineLines(costs),
	].join('\n');
}

/** What `--json` prints: the summary, each request, each marker, each rebuild and each prune's account. */
export function costsJson(path: string, costs: SessionCosts): unknown {
	return {
		path,
		summary: costs.summary,
		requests: costs.timeline.requests,
		markers: costs.timeline.markers,
		rebuilds: costs.rebuilds,
		accounts: costs.accounts.map((account) => ({ ...account, verdictText: verdictText(account.verdict) })),
	};
}
