/**
 * What the extension does at start, on many sessions: the SessionStore lists them from their first
 * lines and starts watching, without reading them (summaries and reclaim figures come later, when a
 * view asks). Compared with reading every file once, to show the start does not grow with their size.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { nullLogger } from '../../src/engine/ports';
import { resolveSessionLocations } from '../../src/node/sessions/sessionLocations';
import { SessionStore } from '../../src/node/store/sessionStore';
import { repoRoot } from '../support/paths';
import { mb, ms, ratio } from './timing';
import { testScope } from '../support/testWork';

export async function benchStoreStart(sessionFile: string, copies: number): Promise<void> {
	const agentDir = join(repoRoot, '.bench', 'store-agent');
	rmSync(agentDir, { recursive: true, force: true });
	const text = readFileSync(sessionFile, 'utf8');
	const rest = text.slice(text.indexOf('\n'));
	let bytes = 0;
	for (let i = 0; i < copies; i++) {
		const folder = join(agentDir, 'sessions', `--project-${i % 20}--`);
		mkdirSync(folder, { recursive: true });
		const header = JSON.stringify({ type: 'session', version: 3, id: `bench-${i}`, timestamp: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(), cwd: `/project-${i % 20}` });
		writeFileSync(join(folder, `bench-${i}.jsonl`), header + rest);
		bytes += header.length + rest.length;
	}
	console.log(`\n## Extension start: SessionStore on ${copies} sessions (${mb(bytes)})`);
	const work = testScope('store');
	const store = new SessionStore({ work, locate: () => resolveSessionLocations({ agentDir, env: {}, homedir: agentDir }), logger: nullLogger, projectSettingsAllowed: () => true });
	const started = performance.now();
	await store.start();
	const startMs = performance.now() - started;
	const summarized = store.rowsList().filter((row) => row.summary !== undefined).length;
	await work.close();
	const readStart = performance.now();
	for (let i = 0; i < copies; i++) {
		readFileSync(join(agentDir, 'sessions', `--project-${i % 20}--`, `bench-${i}.jsonl`));
	}
	const readMs = performance.now() - readStart;
	console.log(`list + watch (first lines only)        ${ms(startMs)}   ${store.rowsList().length} sessions listed, ${summarized} read in full`);
	console.log(`reading every file once (for scale)    ${ms(readMs)}   start / read-all = ${ratio(startMs / readMs)}`);
	rmSync(agentDir, { recursive: true, force: true });
}
