/**
 * `pi-condense costs --all [--json]`: every session Pi keeps, counted once per request. From the
 * session index (brought up to date first): the requests and cache rebuilds come from its rows; each
 * pruned session's prune accounts need the render engine, so a session whose accounts are missing or
 * older than its file is read once and its accounts kept in the index (a warm run reads no file).
 * Without an index (`--no-index`, or one that cannot be used), every file is read
 * (`historyRowsFromFiles`).
 */
import { accountsBasis, digestedHistorySteps, historyReport, historyReportOf, sessionRows, type HistoryGroup, type HistoryOptions, type HistoryPart, type HistoryReport, type RequestRow, type SessionRow, settingText } from '../engine/costs';
import { readingRules, type ReleaseRules } from '../engine/release';
import { runSteps } from '../engine/steps';
import { errorMessage } from '../base/errorMessage';
import type { CliArgs } from './cliArgs';
import { loadRelease } from './loadRelease';
import { readCatalog } from './sessionCatalog';
import { sessionCosts } from './runCostsCommand';
import { usd, usdRange } from './costsText';
import type { ContextPruneConfig } from '../engine/config';
import type { IndexChoice } from './indexOptions';
import { readIndexedCatalog, type IndexedCatalog } from './indexedCatalog';
import type { HistoryIndex } from '../node/history/historyIndex';
import { catalogPrices } from './catalogPrices';
import { processGlobalNpmRoot } from '../node/release/resolveRelease';

type Warn = (text: string) => void;

/** The release rules of each project, loaded once per project. */
class ProjectRules {
	private readonly rules = new Map<string, ReleaseRules>();
	/** npm's global folder, looked up once for the run's projects, not once each. */
	private readonly globalNpmRoot = processGlobalNpmRoot();
	constructor(private readonly args: CliArgs) {}
	async of(project: string): Promise<ReleaseRules> {
		let rules = this.rules.get(project);
		if (rules === undefined) {
			rules = readingRules(await loadRelease(this.args, project, this.globalNpmRoot));
			this.rules.set(project, rules);
		}
		return rules;
	}
}

/** Reads and accounts every session file the catalog lists, one at a time. */
export async function historyRowsFromFiles(args: CliArgs, config: ContextPruneConfig, warn: Warn): Promise<{ requests: RequestRow[]; sessions: SessionRow[] }> {
	const catalog = await readCatalog(args.agentDir, process.cwd());
	const requests: RequestRow[] = [];
	const sessions: SessionRow[] = [];
	const projectRules = new ProjectRules(args);
	for (const file of catalog.files.values()) {
		try {
			const rows = await accountedSession(file.path, { config, rules: await projectRules.of(file.header.cwd) }, args, warn);
			if (rows) {
				requests.push(...rows.requests);
				sessions.push(rows.session);
			}
		} catch (error) {
			warn(`${file.path}: skipped (${errorMessage(error)})`);
		}
	}
	return { requests, sessions };
}

/** One session read from its file and accounted: its history rows. */
async function accountedSession(path: string, context: { config: ContextPruneConfig; rules: ReleaseRules }, args: CliArgs, warn: Warn): Promise<ReturnType<typeof sessionRows> | undefined> {
	const { model, costs } = await sessionCosts(path, context, args.agentDir, warn);
	if (model.header === undefined) {
		return undefined;
	}
	return sessionRows({ path, header: model.header, ...(model.name === undefined ? {} : { title: model.name }), entries: model.entries, timeline: costs.timeline, rebuilds: costs.rebuilds, accounts: costs.accounts });
}

/**
 * The history from the index: first the pruned sessions whose accounts are due are read and their
 * accounts kept, then every session's part comes from its cost digest in the index.
 */
export async function historyPartsFromIndex(index: HistoryIndex, { locations, catalog }: Pick<IndexedCatalog, 'locations' | 'catalog'>, args: CliArgs, config: ContextPruneConfig, warn: Warn): Promise<HistoryPart[]> {
	const projectRules = new ProjectRules(args);
	// The catalog lists what the index lists, the sessions whose accounts may be due; their projects' releases are found side by side.
	const projects = [...new Set([...catalog.files.values()].map((file) => file.header.cwd))];
	const rules = await Promise.all(projects.map((project) => projectRules.of(project)));
	const bases = new Map(projects.map((project, i) => [project, accountsBasis(rules[i] as ReleaseRules, config)]));
	const basisOf = (project: string): string => bases.get(project) ?? '';
	for (const due of await index.accountsDue(locations.roots, basisOf)) {
		try {
			const rows = await accountedSession(due.path, { config, rules: await projectRules.of(due.project) }, args, warn);
			if (rows) {
				await index.storeAccounts(due.path, due.consumed, basisOf(due.project), { prunes: rows.session.prunes, settings: rows.session.settings ?? {} });
			}
		} catch (error) {
			warn(`${due.path}: prunes not accounted (${errorMessage(error)})`);
		}
	}
	const history = await index.costHistory(locations.roots);
	const book = await catalogPrices([...new Set(history.sessions.flatMap((session) => session.digest.unpriced))], args.agentDir, warn);
	return runSteps(digestedHistorySteps(history.sessions, history.copies, book));
}

export async function runCostsHistory(args: CliArgs, choice: IndexChoice, config: ContextPruneConfig): Promise<string> {
	const warn = (text: string): void => void process.stderr.write(`pi-condense: ${text}\n`);
	const options = { timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone };
	const { report, sessions } = await historyOf(args, choice, config, warn, options);
	return args.json ? JSON.stringify(report, null, 2) : historyText(report, sessions);
}

async function historyOf(args: CliArgs, choice: IndexChoice, config: ContextPruneConfig, warn: Warn, options: HistoryOptions): Promise<{ report: HistoryReport; sessions: readonly SessionRow[] }> {
	const fromFiles = async (): Promise<{ report: HistoryReport; sessions: readonly SessionRow[] }> => {
		const { requests, sessions } = await historyRowsFromFiles(args, config, warn);
		return { report: historyReport(requests, sessions, options), sessions };
	};
	if (choice.kind === 'off') {
		return fromFiles();
	}
	const { index, locations, catalog } = await readIndexedCatalog(args.agentDir, process.cwd(), choice);
	if (!index) {
		return fromFiles();
	}
	try {
		const parts = await historyPartsFromIndex(index, { locations, catalog }, args, config, warn);
		return { report: historyReportOf(parts, options), sessions: parts.map((part) => part.row) };
	} finally {
		await index.close();
	}
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
		...report.settings.map((comparison) => `  ${settingText(comparison)}`),
	];
	return lines.join('\n');
}

