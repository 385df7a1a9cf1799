// Fills the temporary Pi agent dir the integration tests run against, before code-server starts, from the
// reference sessions in test/fixtures: the basic session written by real Pi + pi-condense (with its blobs,
// moved into the test workspace's project so it is the one selected by default) and large-bulk, a real v3
// session, and Pi's settings.json with the contextPrune the basic session was pruned with and pi-condense
// 2.0.0 installed as a user has it (the release that wrote both). Copies only. Returns what the tests need.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from './lib.mjs';
import { assembleReferenceFolders, copySession, realSessionsFolder, referenceRelease, writeUserInstall } from '../support/referenceFolders.mjs';

/**
 * `restricted`: the workspace's own .pi/settings.json sends Pi to another session folder holding a
 * copy of the basic session and brings its own pi-condense 2.4.0; in restricted mode both must be ignored.
 */
export function writeIntegrationFixtures(agentDir, workspace, { restricted = false } = {}) {
	const sessionsDir = join(agentDir, 'sessions');
	const reference = assembleReferenceFolders(projectRoot);
	const basicDir = join(reference, 'basic');
	const basic = copySession(join(basicDir, 'session.jsonl'), sessionsDir, { cwd: workspace, mtime: new Date(), withBlobs: true });
	const largeBulk = copySession(join(reference, 'large-bulk', 'session.jsonl'), sessionsDir, { mtime: new Date(Date.now() - 3_600_000) });
	const realV3 = copySession(join(realSessionsFolder(projectRoot), 'before-compaction.migrated-v3.jsonl'), sessionsDir, { mtime: new Date(Date.now() - 86_400_000) });
	const contextPrune = JSON.parse(readFileSync(join(basicDir, 'contextPrune.json'), 'utf8'));
	writeUserInstall(agentDir, { release: referenceRelease(projectRoot, 'basic'), contextPrune, other: { theme: 'dark' } });
	let redirectedSessionsDir;
	if (restricted) {
		redirectedSessionsDir = join(agentDir, 'redirected-by-the-project');
		mkdirSync(join(workspace, '.pi'), { recursive: true });
		mkdirSync(redirectedSessionsDir, { recursive: true });
		// It also brings its own pi-condense (2.4.0), and Pi's trust.json trusts it: still not followed in restricted mode.
		writeFileSync(join(workspace, '.pi', 'settings.json'), JSON.stringify({ sessionDir: redirectedSessionsDir, packages: ['npm:pi-condense'] }));
		const projectCopy = join(workspace, '.pi', 'npm', 'node_modules', 'pi-condense');
		mkdirSync(projectCopy, { recursive: true });
		writeFileSync(join(projectCopy, 'package.json'), JSON.stringify({ name: 'pi-condense', version: '2.4.0' }));
		writeFileSync(join(agentDir, 'trust.json'), JSON.stringify({ [workspace]: true }));
		copyFileSync(join(basicDir, 'session.jsonl'), join(redirectedSessionsDir, 'redirected.jsonl'));
		// The project also names a session index of its own and turns the index off: machine settings, never read from a workspace.
		mkdirSync(join(workspace, '.vscode'), { recursive: true });
		writeFileSync(join(workspace, '.vscode', 'settings.json'), JSON.stringify({ 'piCondense.sessionIndex.path': join(workspace, '.pi', 'project-index.sqlite'), 'piCondense.sessionIndex.enabled': false }));
	}
	return { agentDir, workspace, sessionsDir, basic, largeBulk, realV3, redirectedSessionsDir };
}
