/**
 * The Pi Costs view's rows from the history's costs (the session index's report, each request once):
 * the totals, the cache rebuilds and pruning's net effect; the most expensive sessions (a row opens its
 * session); spend, tokens, rebuilds and pruning per week (its projects under it) and per project (its
 * weeks under it); which pi-condense settings paid back best. Plain data, no `vscode`: the tree
 * provider turns it into items. Every text is plain (a title or project comes from a session file).
 */
import { netText, settingText, totalTokensOf, usd, usdRange, type HistoryGroup, type Range, type UsageSums } from '../../engine/costs';
import { formatCompactCount } from '../../base/numberFormat';
import type { HistoryCosts } from '../../node/history/historyCostsReport';

export interface CostsRow {
	/** Stable across refreshes (VS Code keeps expansion by it). */
	readonly id: string;
	readonly label: string;
	readonly description?: string;
	readonly tooltip?: string;
	/** A codicon. */
	readonly icon: string;
	readonly children?: readonly CostsRow[];
	readonly expanded?: boolean;
	/** A session's row: clicking opens it. */
	readonly sessionPath?: string;
	/** The row of the pruned sessions not counted yet: clicking counts them (Count the Pruning of Every Session). */
	readonly countsPruning?: boolean;
}

type Group = Pick<HistoryGroup, 'sums' | 'rebuilds' | 'pruning'>;

/** How rows name a project (its folder) and a session (as the Pi Sessions view does; the index's title when it has none). */
export interface RowNames {
	readonly project: (cwd: string) => string;
	readonly session: (path: string) => string | undefined;
}

export function piCostsRows(costs: HistoryCosts, names: RowNames): CostsRow[] {
	const projectName = names.project;
	const { report, titles, accountsDue } = costs;
	const { totals } = report;
	const rows: CostsRow[] = [
		{
			id: 'total', icon: 'credit-card', label: `${usd(totals.cost)} spent`,
			description: `${report.sessions.toLocaleString('en-US')} sessions · ${totals.requests.toLocaleString('en-US')} requests`,
			tooltip: `Each request counted once (a fork's copies of its parent's are the parent's).\n${tokenText(totals)}\nSpend: input ${usd(totals.costInput)} · cache read ${usd(totals.costCacheRead)} · cache write ${usd(totals.costCacheWrite)} · output ${usd(totals.costOutput)}`,
		},
		{ id: 'rebuilds', icon: 'debug-restart', label: `${report.rebuilds.count.toLocaleString('en-US')} cache rebuilds`, description: usd(report.rebuilds.cost.mid), tooltip: 'Requests that paid again for a prompt the previous request had cached (Pi\'s own rule).' },
		{
			id: 'pruning', icon: 'fold', label: report.pruning.prunes === 0 ? 'No prune counted' : `Pruning: ${netText(report.pruning.net)}`,
			description: report.pruning.prunes === 0 ? '' : `${report.pruning.prunes.toLocaleString('en-US')} prunes`,
			tooltip: 'What every prune cost (cache re-writes, summarizer calls) and saved on later requests, as a range (see docs/costs.md).',
		},
	];
	if (accountsDue > 0) {
		rows.push({
			id: 'due', icon: 'info', label: `${accountsDue} pruned session${accountsDue === 1 ? '' : 's'} not counted in pruning yet`, description: 'click to count',
			tooltip: 'Works out what each of their prunes cost and saved (each session is read once; a session\'s Costs panel does the same for it) and keeps it in the session index.',
			countsPruning: true,
		});
	}
	rows.push({
		id: 'expensive', icon: 'flame', label: 'Most expensive sessions', expanded: true,
		children: report.mostExpensive.map((group) => ({ ...groupFigures(`session:${group.key}`, names.session(group.key) ?? titles[group.key] ?? group.key, group, 'comment-discussion'), sessionPath: group.key })),
	});
	rows.push({ id: 'weeks', icon: 'calendar', label: 'By week', children: weekRows(report.byProjectWeek, projectName) });
	rows.push({ id: 'projects', icon: 'folder', label: 'By project', children: projectRows(report.byProjectWeek, projectName) });
	rows.push({
		id: 'settings', icon: 'settings-gear', label: 'Which settings paid back best',
		children: report.settings.map((comparison) => ({ id: `setting:${comparison.setting}`, icon: 'symbol-property', label: settingText(comparison) })),
	});
	return rows;
}

/** Weeks, newest first, each with its projects. */
function weekRows(groups: readonly HistoryGroup[], projectName: (project: string) => string): CostsRow[] {
	const weeks = groupBy(groups, (group) => group.week ?? '');
	return [...weeks.entries()].sort(([a], [b]) => b.localeCompare(a)).map(([week, members]) => ({
		...groupFigures(`week:${week}`, `Week of ${week}`, sumGroups(members), 'calendar'),
		children: members.map((group) => groupFigures(`week:${week}:${group.project ?? ''}`, projectName(group.project ?? ''), group, 'folder')),
	}));
}

/** Projects, most spent first, each with its weeks, newest first. */
function projectRows(groups: readonly HistoryGroup[], projectName: (project: string) => string): CostsRow[] {
	const projects = [...groupBy(groups, (group) => group.project ?? '').entries()].map(([project, members]) => ({ project, members, sum: sumGroups(members) }));
	return projects.sort((a, b) => b.sum.sums.cost - a.sum.sums.cost).map(({ project, members, sum }) => ({
		...groupFigures(`project:${project}`, projectName(project), sum, 'folder'),
		tooltip: project,
		children: [...members].sort((a, b) => (b.week ?? '').localeCompare(a.week ?? '')).map((group) => groupFigures(`project:${project}:${group.week ?? ''}`, `Week of ${group.week ?? ''}`, group, 'calendar')),
	}));
}

function groupFigures(id: string, label: string, group: Group, icon: string): CostsRow {
	const pruning = group.pruning.prunes > 0 ? ` · pruning ${usdRange(group.pruning.net)}` : '';
	return {
		id, icon, label,
		description: `${usd(group.sums.cost)} · ${formatCompactCount(totalTokensOf(group.sums))} tokens · ${group.rebuilds.count} rebuild${group.rebuilds.count === 1 ? '' : 's'}${pruning}`,
		tooltip: `${group.sums.requests.toLocaleString('en-US')} requests · ${usd(group.sums.cost)}\n${tokenText(group.sums)}\nCache rebuilds: ${group.rebuilds.count} (${usd(group.rebuilds.cost.mid)})\nPruning: ${group.pruning.prunes === 0 ? 'no prune counted' : `${group.pruning.prunes} prunes, net ${netText(group.pruning.net)}`}`,
	};
}

function tokenText(sums: UsageSums): string {
	return `Tokens: input ${sums.input.toLocaleString('en-US')} · cache read ${sums.cacheRead.toLocaleString('en-US')} · cache write ${sums.cacheWrite.toLocaleString('en-US')} · output ${sums.output.toLocaleString('en-US')}`;
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
	const groups = new Map<string, T[]>();
	for (const item of items) {
		const list = groups.get(key(item)) ?? [];
		list.push(item);
		groups.set(key(item), list);
	}
	return groups;
}

const addRange = (a: Range, b: Range): Range => ({ low: a.low + b.low, mid: a.mid + b.mid, high: a.high + b.high });

function sumGroups(groups: readonly Group[]): Group {
	const keys: (keyof UsageSums)[] = ['requests', 'input', 'output', 'cacheRead', 'cacheWrite', 'cost', 'costInput', 'costOutput', 'costCacheRead', 'costCacheWrite'];
	const sums = Object.fromEntries(keys.map((key) => [key, groups.reduce((total, group) => total + group.sums[key], 0)])) as unknown as UsageSums;
	return {
		sums,
		rebuilds: { count: groups.reduce((total, group) => total + group.rebuilds.count, 0), cost: groups.reduce((total, group) => addRange(total, group.rebuilds.cost), { low: 0, mid: 0, high: 0 }) },
		pruning: { prunes: groups.reduce((total, group) => total + group.pruning.prunes, 0), net: groups.reduce((total, group) => addRange(total, group.pruning.net), { low: 0, mid: 0, high: 0 }) },
	};
}
