/**
 * An agent dir holding one session that pi-condense has never pruned: the rich session (batches of
 * every kind) followed by `extraPrompts` more prompts, each reading a file, with `contextPrune`
 * enabled in settings.json. Its pending batches are what the preview's estimate is about.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { output } from './flushFixtures';
import { richSession } from './richSession';
import { text, toolCall } from './sessionBuilder';

export interface PendingAgentDir {
	readonly agentDir: string;
	readonly sessionFile: string;
	cleanup(): void;
}

export function pendingAgentDir(extraPrompts = 0): PendingAgentDir {
	const agentDir = mkdtempSync(join(tmpdir(), 'pi-condense-pending-'));
	const builder = richSession(true);
	for (let n = 0; n < extraPrompts; n++) {
		builder.user(`Read part ${n}.`);
		builder.assistant([toolCall(`x${n}`, 'read', { path: `src/part${n}.ts` })]);
		builder.toolResult(`x${n}`, 'read', output(`part${n}`, 1200 + (n % 7) * 300));
		builder.assistant([text(`Part ${n} read: see t-refs.`)]);
	}
	const folder = join(agentDir, 'sessions', '--work-demo--');
	mkdirSync(folder, { recursive: true });
	const sessionFile = join(folder, '2026-01-01T00-00-00-000Z_sess-0001.jsonl');
	writeFileSync(sessionFile, builder.text());
	writeFileSync(join(agentDir, 'settings.json'), JSON.stringify({ contextPrune: { enabled: true } }, null, 2));
	return { agentDir, sessionFile, cleanup: () => rmSync(agentDir, { recursive: true, force: true }) };
}
