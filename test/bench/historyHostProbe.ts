/**
 * The history bench's extension-host measure: a SessionStore (what the extension runs) started on the
 * bench history, as a window after a reload, until every listed session shows its summary. With the
 * session index warm (built by the bench's cold run), and without an index (every file read for its
 * summary, as a filter or expanded projects do), in one run. For each: this thread's busy time
 * (event-loop utilization: what the extension host gives up), its longest block (a 1 ms timer's
 * longest delay) and the time until the rows are complete. Prints one JSON line.
 * usage: node historyHostProbe.js <index> <agent dir>
 */
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { nullLogger } from '../../src/engine/ports';
import { resolveSessionLocations } from '../../src/node/sessions/sessionLocations';
import { SessionStore } from '../../src/node/store/sessionStore';
import { repoRoot } from '../support/paths';
import { testScope } from '../support/testWork';

interface HostFigures {
	readonly busyMs: number;
	readonly longestBlockMs: number;
	readonly completeMs: number;
	readonly sessions: number;
}

async function startStore(agentDir: string, index: string | undefined): Promise<HostFigures> {
	const work = testScope('host probe');
	const store = new SessionStore({
		work, logger: nullLogger, projectSettingsAllowed: () => true,
		locate: () => resolveSessionLocations({ agentDir, env: {}, homedir: agentDir }),
		sessionIndex: () => index === undefined ? undefined : { path: index, ownFolder: false, distDir: join(repoRoot, 'dist'), notify: (notice) => console.error(JSON.stringify(notice)) },
	});
	const delays = monitorEventLoopDelay({ resolution: 1 });
	delays.enable();
	const before = performance.eventLoopUtilization();
	const started = performance.now();
	await store.start();
	const complete = (): boolean => {
		const rows = store.rowsList();
		return rows.length > 0 && rows.every((row) => row.summary !== undefined) && store.sessionIndex?.state.kind !== 'building' && store.sessionIndex?.state.kind !== 'starting';
	};
	while (!complete()) {
		if (index === undefined) {
			store.requestDetails(store.rowsList().map((row) => row.file.path), 0);
			await store.idle();
		} else {
			await new Promise((done) => setImmediate(done));
		}
	}
	const completeMs = performance.now() - started;
	const used = performance.eventLoopUtilization(before);
	delays.disable();
	const sessions = store.rowsList().length;
	await work.close();
	return { busyMs: used.active, longestBlockMs: delays.max / 1e6, completeMs, sessions };
}

async function main(): Promise<void> {
	const [index, agentDir] = process.argv.slice(2) as [string, string];
	const indexed = await startStore(agentDir, index);
	const without = await startStore(agentDir, undefined);
	process.stdout.write(`${JSON.stringify({ indexed, without })}\n`);
}

void main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
