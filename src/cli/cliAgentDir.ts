/**
 * The agent directory of a command-line run: `--agent-dir`, else `$PI_CODING_AGENT_DIR`, else
 * `~/.pi/agent`; a relative one is taken from the working folder, as Pi started here takes it.
 */
import { homedir } from 'node:os';
import { resolveAgentDir } from '../node/paths/agentDir';

export function cliAgentDir(option: string | undefined): string {
	return resolveAgentDir({ override: option, env: process.env, homedir: homedir(), cwd: process.cwd() }).path;
}
