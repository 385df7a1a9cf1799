/**
 * Where Pi keeps its configuration and sessions (the "agent dir"), resolved as Pi 0.73.1 does in
 * `config.js` (`getAgentDir`, `expandTildePath`), then made absolute: Pi keeps a relative value and
 * its file calls take it from the folder Pi runs in, and so does `resolveAgentDir` from `cwd`. An
 * absolute path is what the session index keys its rows by (one index serves every folder). The
 * functions take the environment, the home directory and that folder as parameters so they can be
 * tested without touching the real ones.
 */
import { join, resolve } from 'node:path';

const AGENT_DIR_ENV = 'PI_CODING_AGENT_DIR';
export const SESSION_DIR_ENV = 'PI_CODING_AGENT_SESSION_DIR';

export type Environment = Readonly<Record<string, string | undefined>>;

export type AgentDirSource = 'setting' | 'environment' | 'default';

export interface ResolvedAgentDir {
	readonly path: string;
	/** Where the path came from, so the UI can say it. */
	readonly source: AgentDirSource;
}

export interface AgentDirInputs {
	/** An explicit choice (the `piCondense.agentDir` VS Code setting); empty means none. */
	readonly override?: string;
	readonly env: Environment;
	readonly homedir: string;
	/** The folder a relative value is taken from (the command line's working folder, as Pi's is). */
	readonly cwd: string;
}

/**
 * Expands a leading `~` or `~/` to the home directory, as Pi does for its environment variables
 * and settings; `~user` and `~\` are left alone (Pi does not expand them either).
 */
export function expandHome(path: string, homedir: string): string {
	if (path === '~') {
		return homedir;
	}
	if (path.startsWith('~/')) {
		return join(homedir, path.slice(2));
	}
	return path;
}

/** The override, else `$PI_CODING_AGENT_DIR`, else `~/.pi/agent`, as an absolute path. Empty values count as unset, as in Pi. */
export function resolveAgentDir(inputs: AgentDirInputs): ResolvedAgentDir {
	const override = inputs.override?.trim();
	if (override) {
		return { path: resolve(inputs.cwd, expandHome(override, inputs.homedir)), source: 'setting' };
	}
	const fromEnv = inputs.env[AGENT_DIR_ENV];
	if (fromEnv) {
		return { path: resolve(inputs.cwd, expandHome(fromEnv, inputs.homedir)), source: 'environment' };
	}
	return { path: resolve(inputs.cwd, join(inputs.homedir, '.pi', 'agent')), source: 'default' };
}

/** `<agentDir>/settings.json`, the file holding `contextPrune` and Pi's global `sessionDir`. */
export function globalSettingsPath(agentDir: string): string {
	return join(agentDir, 'settings.json');
}

/** `<cwd>/.pi/settings.json`, Pi's project settings (deep-merged over the global file by Pi). */
export function projectSettingsPath(cwd: string): string {
	return join(cwd, '.pi', 'settings.json');
}

/** `<agentDir>/sessions`, holding one folder per encoded project cwd (Pi's default layout). */
export function defaultSessionsRoot(agentDir: string): string {
	return join(agentDir, 'sessions');
}
