/**
 * The history bench's measure of the Pi Costs view's path (issue: the cross-session view <= 500 ms from
 * a warm index, no host block > 50 ms): in a long-lived process, as a VS Code window runs it, the
 * session index's own thread (`HistoryService`, the bundle VS Code loads) opened on the warm index and
 * refreshed once (a window's start), then the view's call (`costs`, the report and its titles) made
 * four times. For each call: the time the view waits for its answer; over them, this thread's busy
 * time (what the extension host gives up: the answer's structured copy) and its longest block.
 * Prints one JSON line.
 * usage: node historyCostsProbe.js <index> <agent dir> [<dist dir>, to measure another build's thread]
 */
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { HistoryService } from '../../src/node/history/service/historyService';
import { repoRoot } from '../support/paths';
import { testScope } from '../support/testWork';

async function main(): Promise<void> {
	const [indexPath, agentDir, distDir = join(repoRoot, 'dist')] = process.argv.slice(2) as [string, string, string?];
	const roots = [{ path: join(agentDir, 'sessions'), layout: 'per-project' as const, source: 'default' as const }];
	const work = testScope('costs probe');
	const service = new HistoryService(work, { path: indexPath, ownFolder: false, distDir, notify: (notice) => process.stderr.write(`${JSON.stringify(notice)}\n`) });
	if ((await service.opened) === undefined) {
		throw new Error('index off');
	}
	await service.refresh(roots);
	const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
	const delays = monitorEventLoopDelay({ resolution: 1 });
	delays.enable();
	const before = performance.eventLoopUtilization();
	const callsMs: number[] = [];
	let requests = 0;
	for (let i = 0; i < 4; i++) {
		const started = performance.now();
		const costs = await service.costs(roots, { timeZone });
		callsMs.push(performance.now() - started);
		requests = costs.report.totals.requests;
	}
	const busyMs = performance.eventLoopUtilization(before).active;
	delays.disable();
	await work.close();
	process.stdout.write(`${JSON.stringify({ firstMs: callsMs[0], warmMs: callsMs.slice(1), busyMs, longestBlockMs: delays.max / 1e6, requests })}\n`);
}

main().catch((error: unknown) => {
	process.stderr.write(`${String(error)}\n`);
	process.exit(1);
});
