// Fills the temporary Pi agent dir the integration tests run against, before code-server starts:
// sessions written by real Pi + pi-condense (../shared/pi-condense-sessions/basic with its blobs, moved
// into the test workspace's project so it is the one selected by default, and large-bulk), a real v3
// session (../shared/real-sessions), and Pi's settings.json with the contextPrune the basic session was
// pruned with. Copies only: the shared files are never changed. Returns what the tests need to know.
import { copyFileSync, cpSync, mkdirSync, readFileSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sharedDir } from './lib.mjs';


/** Pi's session folder name for a project cwd (`/a/b` → `--a-b--`). */
export function sessionFolderName(cwd) {
	return `--${cwd.replace(/^[/\\]/, '').replace(/[/\\:]/g, '-')}--`;
}

function firstLine(path) {
	const text = readFileSync(path, 'utf8');
	return JSON.parse(text.slice(0, text.indexOf('\n')));
}

/** Copies a session file under Pi's naming (`<timestamp>_<id>.jsonl`), optionally with another header cwd. */
function copySession(source, sessionsDir, { cwd, mtime } = {}) {
	const header = firstLine(source);
	const projectCwd = cwd ?? header.cwd;
	const folder = join(sessionsDir, sessionFolderName(projectCwd));
	mkdirSync(folder, { recursive: true });
	const target = join(folder, `${header.timestamp.replace(/[:.]/g, '-')}_${header.id}.jsonl`);
	if (cwd === undefined) {
		copyFileSync(source, target);
	} else {
		const text = readFileSync(source, 'utf8');
		const rest = text.slice(text.indexOf('\n'));
		writeFileSync(target, JSON.stringify({ ...header, cwd }) + rest);
	}
	if (mtime) {
		utimesSync(target, mtime, mtime);
	}
	return { path: target, id: header.id, cwd: projectCwd };
}

/**
 * `restricted`: the workspace's own .pi/settings.json sends Pi to another session folder holding a
 * copy of the basic session; in restricted mode it must be ignored.
 */
export function writeIntegrationFixtures(agentDir, workspace, { restricted = false } = {}) {
	const sessionsDir = join(agentDir, 'sessions');
	const basicDir = join(sharedDir, 'pi-condense-sessions', 'basic');
	const basic = copySession(join(basicDir, 'session.jsonl'), sessionsDir, { cwd: workspace, mtime: new Date() });
	for (const entry of readdirSync(basicDir, { withFileTypes: true })) {
		if (entry.isDirectory() && entry.name.endsWith('-blobs')) {
			cpSync(join(basicDir, entry.name), join(sessionsDir, sessionFolderName(workspace), entry.name), { recursive: true });
		}
	}
	const largeBulk = copySession(join(sharedDir, 'pi-condense-sessions', 'large-bulk', 'session.jsonl'), sessionsDir, { mtime: new Date(Date.now() - 3_600_000) });
	const realV3 = copySession(join(sharedDir, 'real-sessions', 'before-compaction.migrated-v3.jsonl'), sessionsDir, { mtime: new Date(Date.now() - 86_400_000) });
	const contextPrune = JSON.parse(readFileSync(join(basicDir, 'contextPrune.json'), 'utf8'));
	writeFileSync(join(agentDir, 'settings.json'), JSON.stringify({ theme: 'dark', contextPrune }, null, 2));
	let redirectedSessionsDir;
	if (restricted) {
		redirectedSessionsDir = join(agentDir, 'redirected-by-the-project');
		mkdirSync(join(workspace, '.pi'), { recursive: true });
		mkdirSync(redirectedSessionsDir, { recursive: true });
		writeFileSync(join(workspace, '.pi', 'settings.json'), JSON.stringify({ sessionDir: redirectedSessionsDir }));
		copyFileSync(join(basicDir, 'session.jsonl'), join(redirectedSessionsDir, 'redirected.jsonl'));
	}
	return { agentDir, workspace, sessionsDir, basic, largeBulk, realV3, sharedDir, redirectedSessionsDir };
}
