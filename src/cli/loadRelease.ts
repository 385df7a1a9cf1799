/**
 * The pi-condense release the command line follows for a session: the copy Pi loads in the
 * session's project (its header's `cwd`), found as Pi finds packages, unless `--release` names
 * one. Resolved once per run.
 */
import { open } from 'node:fs/promises';
import type { ContextPruneConfig } from '../engine/config';
import { overrideOf, type ReleaseResolution, type ReleaseRules } from '../engine/release';
import { parseHeaderLine } from '../engine/session';
import type { GlobalNpmRoot } from '../node/release/globalNpmRoot';
import { resolveRelease } from '../node/release/resolveRelease';
import { readFirstLine } from '../node/sessions/firstLine';
import type { CliArgs } from './cliArgs';
import { cliAgentDir } from './cliAgentDir';

/** What every command runs with: the `contextPrune` configuration and the release to follow. */
export interface CliContext {
	/** As it decides what is sent: pruning is off while pi-condense is not installed. */
	readonly config: ContextPruneConfig;
	readonly resolution: ReleaseResolution;
	/** The rules the session is read and rendered with (`readingRules(release)`). */
	readonly rules: ReleaseRules;
}

/** `globalNpmRoot`: one finder for every project of a run (npm's global folder is looked up once). */
export async function loadRelease(args: CliArgs, cwd: string | undefined, globalNpmRoot?: GlobalNpmRoot): Promise<ReleaseResolution> {
	const agentDir = cliAgentDir(args.agentDir);
	return resolveRelease({ agentDir, cwd, choice: { override: overrideOf(args.release, 'flag'), warning: undefined }, projectSettingsAllowed: true, ...(globalNpmRoot === undefined ? {} : { globalNpmRoot }) });
}

/** The project of a session file from its header, without reading the rest; undefined when unreadable. */
export async function sessionCwd(path: string): Promise<string | undefined> {
	try {
		const handle = await open(path, 'r');
		try {
			const first = await readFirstLine(handle);
			const parsed = first.kind === 'line' ? parseHeaderLine(first.text) : undefined;
			return parsed?.ok && parsed.header.cwd !== '' ? parsed.header.cwd : undefined;
		} finally {
			await handle.close();
		}
	} catch {
		return undefined;
	}
}
