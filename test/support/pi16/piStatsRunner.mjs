// Runs Pi 1.6.0's own accounting (`@earendil-works/pi-coding-agent`, a dev dependency) on session files and
// prints it as JSON, for the costs parity tests: what `/session` shows, computed by Pi's code: the totals of
// `AgentSession.getSessionStats` (called on an object that has only what the method reads: the session
// manager), the cache waste of `core/cache-stats.js` (`computeCacheWaste`, `collectCacheMisses`), and the
// per-model breakdown of `core/usage-totals.js`. Pi 1.x needs Node >= 22.19: run by `test/support/pi16Stats.ts`.
//
// stdin: {"paths":["<file>", …]}   stdout: {"pi":"1.6.0","results":[{stats, waste, misses, breakdown} | {error}]}
import { mkdtempSync, readFileSync, rmSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const pi = await import('@earendil-works/pi-coding-agent');
const piRoot = dirname(dirname(fileURLToPath(import.meta.resolve('@earendil-works/pi-coding-agent'))));
const piVersion = JSON.parse(readFileSync(join(piRoot, 'package.json'), 'utf8')).version;
// Not exported by the package: imported by file, as /session imports them.
const cacheStats = await import(pathToFileURL(join(piRoot, 'dist', 'core', 'cache-stats.js')).href);
const usageTotals = await import(pathToFileURL(join(piRoot, 'dist', 'core', 'usage-totals.js')).href);

/** No catalog: a miss without a cache read is priced with a read price of 0 (the tests pass ours no prices either). */
const models = { getModel: () => undefined };

function answer(path) {
	// Pi rewrites a file it migrates: it reads a private copy.
	const dir = mkdtempSync(join(tmpdir(), 'pi16-stats-'));
	try {
		const file = join(dir, 'session.jsonl');
		copyFileSync(path, file);
		const manager = pi.SessionManager.open(file, dir);
		const entries = manager.getEntries();
		const stats = pi.AgentSession.prototype.getSessionStats.call({ sessionManager: manager, sessionFile: file, sessionId: manager.getSessionId(), getContextUsage: () => undefined });
		const misses = [...cacheStats.collectCacheMisses(entries, models).entries()].map(([message, miss]) => ({ timestamp: message.timestamp, ...miss }));
		return { stats: { tokens: stats.tokens, cost: stats.cost, assistantMessages: stats.assistantMessages }, waste: cacheStats.computeCacheWaste(entries, models), misses, breakdown: usageTotals.getUsageCostBreakdown(entries) };
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

const chunks = [];
for await (const chunk of process.stdin) {
	chunks.push(chunk);
}
const { paths } = JSON.parse(Buffer.concat(chunks).toString('utf8'));
const results = paths.map((path) => {
	try {
		return answer(path);
	} catch (error) {
		return { error: error instanceof Error ? error.stack ?? error.message : String(error) };
	}
});
process.stdout.write(JSON.stringify({ pi: piVersion, results }));
