/**
 * A Pi agent dir for tests holding one of the reference sessions written by real pi-condense, laid
 * out as on a user's machine: the session file under Pi's name in its project folder with its blobs
 * beside it, and the user settings and package install of the release that wrote it (its
 * `contextPrune.json` as the `contextPrune` key of `settings.json`, see referenceFolders.mjs).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { piCondenseSessionsDir, repoRoot } from './paths';
import { copySession, referenceRelease, writeUserInstall } from './referenceFolders.mjs';

export interface ReferenceAgentDir {
	readonly agentDir: string;
	readonly sessionFile: string;
	/** The pi-condense release installed in the agent dir: the one that wrote the folder. */
	readonly release: string;
	cleanup(): void;
}

/** Copies the reference folder `<folder>` (`basic`, `recovery-2.9.1`, …) into `agentDir` (a fresh temp dir when omitted). */
export function referenceAgentDir(folder: string, agentDir = mkdtempSync(join(tmpdir(), 'pi-condense-preview-'))): ReferenceAgentDir {
	const from = join(piCondenseSessionsDir, folder);
	const { path: sessionFile } = copySession(join(from, 'session.jsonl'), join(agentDir, 'sessions'), { withBlobs: true });
	const release = referenceRelease(repoRoot, folder);
	const contextPrune = JSON.parse(readFileSync(join(from, 'contextPrune.json'), 'utf8')) as unknown;
	writeUserInstall(agentDir, { release, contextPrune });
	return { agentDir, sessionFile, release, cleanup: () => rmSync(agentDir, { recursive: true, force: true }) };
}
