/**
 * Which folders hold Pi's session files, decided as Pi 0.73.1 decides where to write them
 * (`main.js`, `settings-manager.js getSessionDir`):
 *   1. `$PI_CODING_AGENT_SESSION_DIR` (a leading `~` expanded), else
 *   2. `sessionDir` from the project `<cwd>/.pi/settings.json` merged over the global
 *      `<agentDir>/settings.json` (a relative path resolves against the project folder, where Pi
 *      runs): both give a FLAT folder, session files directly inside; else
 *   3. `<agentDir>/sessions/`, one sub-folder per encoded project cwd.
 * The result also says where it looked, so a welcome view can tell the user, and which project
 * settings sent it elsewhere. A project's settings come with the repository: in a workspace VS Code
 * has not trusted, their `sessionDir` is ignored (with a note), so a repository cannot point Pi
 * Condense at a folder of its choosing.
 */
import { isAbsolute, resolve } from 'node:path';
import { describeSettingsProblem } from '../../engine/config';
import { readSettingsFile } from '../settings/settingsFile';
import { defaultSessionsRoot, expandHome, globalSettingsPath, projectSettingsPath, SESSION_DIR_ENV, type Environment } from '../paths/agentDir';

export type SessionLayout = 'flat' | 'per-project';
export type SessionDirSource = 'environment' | 'project-settings' | 'global-settings' | 'default';

export interface SessionRoot {
	readonly path: string;
	/** `flat`: `*.jsonl` directly in `path`; `per-project`: in `path/<encoded cwd>/`. */
	readonly layout: SessionLayout;
	readonly source: SessionDirSource;
}

export interface SessionLocations {
	readonly agentDir: string;
	/** Distinct folders to scan and watch. */
	readonly roots: readonly SessionRoot[];
	/** Things worth telling the user (unreadable settings, ignored values). */
	readonly notes: readonly string[];
	/** Project settings whose `sessionDir` decides where sessions are read from. */
	readonly projectRedirects: readonly ProjectRedirect[];
}

export interface ProjectRedirect {
	/** `<cwd>/.pi/settings.json` */
	readonly settingsFile: string;
	/** The folder its `sessionDir` names. */
	readonly folder: string;
}

export interface SessionLocationInputs {
	readonly agentDir: string;
	readonly env: Environment;
	readonly homedir: string;
	/** Open workspace folders: their `.pi/settings.json` may set their own `sessionDir`. */
	readonly workspaceFolders?: readonly string[];
	/** False in an untrusted workspace: project settings do not redirect (default true). */
	readonly trustProjectSettings?: boolean;
}

export async function resolveSessionLocations(inputs: SessionLocationInputs): Promise<SessionLocations> {
	const notes: string[] = [];
	const projectRedirects: ProjectRedirect[] = [];
	const fromEnv = inputs.env[SESSION_DIR_ENV];
	const globalPath = globalSettingsPath(inputs.agentDir);
	const globalDir = fromEnv ? undefined : await readSessionDirSetting(globalPath, notes);
	const defaultRoot: SessionRoot = { path: defaultSessionsRoot(inputs.agentDir), layout: 'per-project', source: 'default' };
	const folders = inputs.workspaceFolders ?? [];
	const cwds: readonly (string | undefined)[] = folders.length > 0 ? folders : [undefined];
	const roots: SessionRoot[] = [];
	for (const cwd of cwds) {
		roots.push(await rootFor(cwd) ?? defaultRoot);
	}
	const distinct = new Map(roots.map((root) => [root.path, root]));
	return { agentDir: inputs.agentDir, roots: [...distinct.values()], notes, projectRedirects };

	async function rootFor(cwd: string | undefined): Promise<SessionRoot | undefined> {
		if (fromEnv) {
			return flatRoot(fromEnv, cwd, 'environment', `$${SESSION_DIR_ENV}`);
		}
		if (cwd !== undefined) {
			const projectPath = projectSettingsPath(cwd);
			const projectDir = await readSessionDirSetting(projectPath, notes);
			if (projectDir !== undefined && inputs.trustProjectSettings === false) {
				addNote(`Ignored sessionDir ${String(JSON.stringify(projectDir)).slice(0, 200)} in ${projectPath}: this workspace is in restricted mode, so its project settings do not choose where sessions are read from. Trust the workspace to follow it.`);
			} else if (projectDir !== undefined) {
				// Pi merges project settings over global ones: any project value wins, even an empty one.
				const root = flatRoot(projectDir, cwd, 'project-settings', projectPath);
				if (root) {
					projectRedirects.push({ settingsFile: projectPath, folder: root.path });
				}
				return root;
			}
		}
		return flatRoot(globalDir, cwd, 'global-settings', globalPath);
	}

	function flatRoot(value: unknown, cwd: string | undefined, source: SessionDirSource, origin: string): SessionRoot | undefined {
		if (value === undefined || value === null || value === '') {
			return undefined;
		}
		if (typeof value !== 'string') {
			addNote(`Ignored sessionDir in ${origin}: it is not a string.`);
			return undefined;
		}
		const path = expandHome(value, inputs.homedir);
		if (isAbsolute(path)) {
			return { path, layout: 'flat', source };
		}
		if (cwd === undefined) {
			addNote(`Ignored the relative session folder "${value}" from ${origin}: Pi resolves it against the folder it runs in, so open that folder as a workspace folder.`);
			return undefined;
		}
		return { path: resolve(cwd, path), layout: 'flat', source };
	}

	function addNote(note: string): void {
		if (!notes.includes(note)) {
			notes.push(note);
		}
	}
}

/** The `sessionDir` value of one settings file; undefined when the file or the key is absent or unusable. */
async function readSessionDirSetting(path: string, notes: string[]): Promise<unknown> {
	const snapshot = await readSettingsFile(path);
	const problem = describeSettingsProblem(path, snapshot.state);
	if (problem !== undefined && !notes.includes(problem)) {
		notes.push(problem);
	}
	return snapshot.settings?.sessionDir;
}
