/**
 * `pi-condense costs --all [--json]`: every session Pi keeps, counted once per request. Today the
 * rows come from reading every file (`historyRowsFromFiles`, the one place that does); the persistent
 * index will hand the same rows to `historyReport` instead.
 */
import { historyReport, sessionRows, type HistoryGroup, type HistoryReport, type RequestRow, type SessionRow, type SettingsComparison } from '../engine/costs';
import { readingRules } from '../engine/release';
import { errorMessage } from '../base/errorMessage';
import type { CliArgs } from './cliArgs';
import { loadRelease } from './loadRelease';
import { readCatalog } from './sessionCatalog';
import { sessionCosts } from './runCostsCommand';
import { usd, usdRange } from './costsText';
import type { ContextPruneConfig } from '../engine/config';

/** Reads and accounts every session file the catalog lists, one at a time. */
export async function historyRowsFromFiles(args: CliArgs, config: ContextPruneConfig, warn: (text: string) => void): Promise<{ requests: RequestRow[]; sessions: SessionRow[] }> {
	const catalog = await readCatalog(args.agentDir, process.cwd());
	const requests: RequestRow[] = [];
	const sessions: SessionRow[] = [];
	const rulesByProject = new Map<string, ReturnType<typeof readingRules>>();
	for (const file of catalog.files.values()) {
		try {
			let rules = rulesByProject.get(file.header.cwd);
			if (rules === undefined) {
				rules = readingRules(await loadRelease(args, file.header.cwd));
				rulesByProject.set(file.header.cwd, rules);
			}
			const { model, costs } = await sessionCosts(file.path, { config, rules }, args.agentDir, warn);
			if (model.header === undefined) {
				continue;
			}
			const rows = sessionRows({ path: file.path, header: model.header, ...(model.name === undefined ? {} : { title: model.name }), entries: model.entries, timeline: costs.timeline, rebuilds: costs.rebuilds, accounts: costs.accounts });
			requests.push(...rows.requests);
			sessions.push(rows.session);
		} catch (error) {
			warn(`${file.path}: skipped (${errorMessage(error)})`);
		}
	}
	return { requests, sessions };
}

export async function runCostsHistory(args: CliArgs, config: ContextPruneConfig): Promise<string> {
	const warn = (text: string): void => void process.stderr.write(`pi-condense: ${text}\n`);
	const { requests, sessions } = await historyRowsFromFiles(args, config, warn);
	const report = historyReport(requests, sessions, { timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone });
	return args.json ? JSON.stringify(report, null, 2) : historyText(report, sessions);
}

function groupLine(label: string, group: HistoryGroup): string {
	const { sums } = group;
	const pruning = group.pruning.prunes > 0 ? ` · pruning ${usdRange(group.pruning.net)} over ${group.pruning.prunes}` : '';
	return `  ${label.padEnd(44)} ${usd(sums.cost).padStart(9)} · ${sums.requests} requests · ${(sums.input + sums.output + sums.cacheRead + sums.cacheWrite).toLocaleString('en-US')} tokens · ${group.rebuilds.count} rebuilds (${usd(group.rebuilds.cost.mid)})${pruning}`;
}

export function historyText(report: HistoryReport, sessions: readonly SessionRow[]): string {
	const titles = new Map(sessions.map((session) => [session.session, session.title ?? `${session.id.slice(0, 8)} (${session.project})`]));
	const { totals } = report;
	const lines = [
		`${report.sessions} sessions · ${totals.requests.toLocaleString('en-US')} requests (each counted once) · ${usd(totals.cost)}`,
		`  cache read ${totals.cacheRead.toLocaleString('en-US')} · cache write ${totals.cacheWrite.toLocaleString('en-US')} · input ${totals.input.toLocaleString('en-US')} · output ${totals.output.toLocaleString('en-US')} tokens`,
		`  cache rebuilds: ${report.rebuilds.count} (${usd(report.rebuilds.cost.mid)}) · pruning: ${report.pruning.prunes} prunes, net ${usdRange(report.pruning.net)}`,
		'',
		'By project and week:',
		...report.byProjectWeek.map((group) => groupLine(`${group.project ?? ''} · week of ${group.week ?? ''}`, group)),
		'',
		'Most expensive sessions:',
		...report.mostExpensive.map((group) => groupLine(titles.get(group.key) ?? group.key, group)),
		'',
		'Which settings paid back best:',
		...report.settings.map(settingLine),
	];
	return lines.join('\n');
}

function settingLine(comparison: SettingsComparison): string {
	const groups = comparison.groups.map((group) => `${group.value}: ${usdRange(group.netPerPrune)} per prune (${group.sessions} sessions)`).join('; ');
	const verdict = comparison.verdict.kind === 'best' ? `best: ${comparison.verdict.value}` : comparison.verdict.kind === 'no-clear-difference' ? 'no clear difference' : `too little data to tell (${comparison.verdict.reason})`;
	return `  ${comparison.setting}: ${verdict}${groups ? ` — ${groups}` : ''}`;
}
