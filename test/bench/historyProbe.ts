/**
 * The history bench's in-process measures on one Node (node:sqlite on Node 22+, WebAssembly on Node
 * 20): a warm refresh, one line appended to a large session and reflected (the watcher's call), and
 * searches over the whole history, warm. Prints one JSON line.
 * usage: node historyProbe.js <index> <agent dir> <session to append to>
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { HistoryIndex } from '../../src/node/history/historyIndex';
import { searchHistory } from '../../src/node/history/historySearch';
import { repoRoot } from '../support/paths';
import { testWork } from '../support/testWork';
import { median } from './timing';

async function main(): Promise<void> {
	const [indexPath, agentDir, appendTo] = process.argv.slice(2) as [string, string, string];
	const root = { path: join(agentDir, 'sessions'), layout: 'per-project' as const, source: 'default' as const };
	const index = await HistoryIndex.open({ path: indexPath, ownFolder: false, distDir: join(repoRoot, 'dist'), slices: testWork, notify: () => undefined });
	if (!index) {
		throw new Error('index off');
	}
	let started = performance.now();
	await index.refresh([root]);
	const warmRefreshMs = performance.now() - started;
	const appendMs: number[] = [];
	const plantedMs: number[] = [];
	for (let i = 0; i < 5; i++) {
		const word = `planted${process.pid}x${i}`;
		const time = Date.now();
		appendFileSync(appendTo, `${JSON.stringify({ type: 'message', id: `p${process.pid}${i}`, parentId: null, timestamp: new Date(time).toISOString(), message: { role: 'user', content: [{ type: 'text', text: `did the ${word} arrive?` }], timestamp: time } })}\n`);
		started = performance.now();
		await index.fileChanged(appendTo, root);
		appendMs.push(performance.now() - started);
		started = performance.now();
		const found = await searchHistory(index, word);
		plantedMs.push(performance.now() - started);
		if (found.length !== 1) {
			throw new Error(`${word} not found after its append`);
		}
	}
	const searches: Record<string, number> = {};
	for (const words of ['error', 'build failed', 'function test', 'typescript compile error', 'hist123word']) {
		const times: number[] = [];
		let sessions = 0;
		for (let i = 0; i < 3; i++) {
			started = performance.now();
			sessions = (await searchHistory(index, words)).length;
			times.push(performance.now() - started);
		}
		searches[`${words} (${sessions} sessions)`] = median(times);
	}
	const engine = index.engine;
	await index.close();
	process.stdout.write(`${JSON.stringify({ engine, warmRefreshMs, appendMs: median(appendMs), plantedSearchMs: median(plantedMs), searches })}\n`);
}

main().catch((error: unknown) => {
	process.stderr.write(`${String(error)}\n`);
	process.exit(1);
});
