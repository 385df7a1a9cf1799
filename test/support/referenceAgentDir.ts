/**
 * A Pi agent dir for tests holding one of the reference sessions written by real pi-condense:
 * the session file and its blobs copied under `sessions/`, and its `contextPrune.json` as the
 * `contextPrune` key of `settings.json`.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { piCondenseSessionsDir } from './paths';

export interface ReferenceAgentDir {
	readonly agentDir: string;
	readonly sessionFile: string;
	cleanup(): void;
}

/** Copies `../shared/pi-condense-sessions/<folder>` into `agentDir` (a fresh temp dir when omitted). */
export function referenceAgentDir(folder: string, agentDir = mkdtempSync(join(tmpdir(), 'pi-condense-preview-'))): ReferenceAgentDir {
	const from = join(piCondenseSessionsDir, folder);
	const sessions = join(agentDir, 'sessions', '--work-project--');
	mkdirSync(sessions, { recursive: true });
	const text = readFileSync(join(from, 'session.jsonl'), 'utf8');
	const header = JSON.parse(text.slice(0, text.indexOf('\n'))) as { id: string; timestamp: string };
	const sessionFile = join(sessions, `${header.timestamp.replace(/[:.]/g, '-')}_${header.id}.jsonl`);
	writeFileSync(sessionFile, text);
	for (const name of readdirSync(from)) {
		if (name.endsWith('-blobs')) {
			cpSync(join(from, name), join(sessions, name), { recursive: true });
		}
	}
	const contextPrune = JSON.parse(readFileSync(join(from, 'contextPrune.json'), 'utf8')) as unknown;
	writeFileSync(join(agentDir, 'settings.json'), JSON.stringify({ contextPrune }, null, 2));
	return { agentDir, sessionFile, cleanup: () => rmSync(agentDir, { recursive: true, force: true }) };
}
