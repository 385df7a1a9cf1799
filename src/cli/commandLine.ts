/**
 * `pi-condense` (`dist/cli-commands.js`, loaded by the entry `src/cli.ts`): a command line over the engine. Lists the sessions Pi keeps, prints what
 * `/pruner` would show for a session (a file, an id prefix, or `--latest`) and the exact context
 * pi-condense would send, and runs `/pruner now` and `/pruner compact` on idle sessions. Problems found in a session read by the read-only commands go to stderr as
 * `file:line: severity: message`. Exit codes: 0 on success (or nothing to do; problems or not), 1
 * when a flush was refused, failed or interrupted, 2 on bad usage or an unreadable session or
 * configuration file.
 */
import { stat } from 'node:fs/promises';
import { FLUSH_COMMANDS, parseCliArgs, USAGE, UsageError, type CliArgs } from './cliArgs';
import { latestSession, listJson, listText, sessionByIdPrefix, type Catalog } from './sessionCatalog';
import { INDEX_USAGE, takeIndexOptions, type IndexChoice } from './indexOptions';
import { readSessionCatalog } from './indexedCatalog';
import { runSearchCommand } from './runSearchCommand';
import { ConfigFileError, loadPruneConfig } from './loadPruneConfig';
import { readCliSession, SessionFileError, sessionProblemLines } from './cliSession';
import { runCommand } from './runCommand';
import { runFlushCommand } from './runFlushCommand';
import { runDemoCommand } from './runDemoCommand';
import { runCostsCommand } from './runCostsCommand';
import { runCostsHistory } from './costsHistory';
import { loadRelease, sessionCwd } from './loadRelease';
import { effectiveConfig } from '../engine/config';
import { KNOWN_RELEASES, LATEST_RELEASE, readingRules, type ReleaseResolution, releaseWarningText } from '../engine/release';
import { piHome } from '../node/release/resolveRelease';
import { cliWork as work } from './cliWork';

/** Runs the command line on `argv` (without node and the script); resolves with the exit code. */
export async function runCommandLine(argv: readonly string[]): Promise<number> {
	if (argv.includes('--help') || argv.includes('-h')) {
		process.stdout.write(`${USAGE}\n\n${INDEX_USAGE}\n`);
		return 0;
	}
	if (argv.includes('--version') || argv.includes('-v')) {
		process.stdout.write(`${versionText()}\n`);
		return 0;
	}
	if (argv[0] === 'demo') {
		return runDemoCommand(work, argv.slice(1));
	}
	try {
		const { index, rest } = takeIndexOptions(argv);
		if (rest[0] === 'search') {
			return await runSearchCommand(rest.slice(1), index);
		}
		const parsed = parseCliArgs(rest);
		if (parsed.command === 'list') {
			const catalog = await indexedCatalog(parsed, index);
			process.stdout.write(`${parsed.json ? listJson(catalog) : listText(catalog)}\n`);
			return 0;
		}
		if (parsed.command === 'costs' && parsed.all) {
			const loaded = await loadPruneConfig({ agentDir: parsed.agentDir, configFile: parsed.configFile }, readingRules(await loadRelease(parsed, process.cwd())));
			process.stdout.write(`${await runCostsHistory(parsed, index, loaded.config)}\n`);
			return 0;
		}
		const args = { ...parsed, sessionFile: await findSession(parsed, index) };
		const resolution = warnAbout(await loadRelease(args, await sessionCwd(args.sessionFile)));
		const rules = readingRules(resolution);
		const loaded = await loadPruneConfig({ agentDir: args.agentDir, configFile: args.configFile }, rules);
		for (const warning of loaded.warnings) {
			process.stderr.write(`pi-condense: warning: ${warning}\n`);
		}
		const context = { config: effectiveConfig(loaded.config, resolution), resolution, rules };
		if (FLUSH_COMMANDS.includes(args.command)) {
			const controller = new AbortController();
			const abort = (): void => controller.abort();
			process.once('SIGINT', abort);
			process.once('SIGTERM', abort);
			const output = await runFlushCommand(work, args, context, controller.signal);
			process.stdout.write(output.stdout);
			process.stderr.write(output.stderr);
			return output.exitCode;
		}
		if (args.command === 'costs') {
			process.stdout.write(`${await runCostsCommand(args, context)}\n`);
			return 0;
		}
		const session = await readCliSession(work, args.sessionFile, context.config, rules);
		for (const line of sessionProblemLines(session)) {
			process.stderr.write(`pi-condense: ${line}\n`);
		}
		process.stdout.write(`${await runCommand(args, session, context)}\n`);
		return 0;
	} catch (error) {
		if (error instanceof UsageError) {
			process.stderr.write(`pi-condense: ${error.message}\n\n${USAGE}\n`);
			return 2;
		}
		if (error instanceof SessionFileError || error instanceof ConfigFileError) {
			process.stderr.write(`pi-condense: ${error.message}\n`);
			return 2;
		}
		throw error;
	}
}

/** The session file the arguments name: a file as given, `--latest`, or the session whose id starts so. */
async function findSession(args: CliArgs, index: IndexChoice): Promise<string> {
	const session = args.session;
	if (session.kind === 'named' && await isFile(session.value)) {
		return session.value;
	}
	const catalog = await indexedCatalog(args, index);
	if (session.kind === 'latest') {
		const path = latestSession(catalog, (note) => process.stderr.write(`pi-condense: ${note}\n`));
		process.stderr.write(`pi-condense: ${path}\n`);
		return path;
	}
	if (session.kind === 'named' && !/[\\/]|\.jsonl$/i.test(session.value)) {
		return sessionByIdPrefix(catalog, session.value);
	}
	// A path that does not exist: reading it says so, naming it.
	return session.kind === 'named' ? session.value : '';
}

/** The sessions Pi keeps, from the session index (brought up to date) or, without one, from the files. */
async function indexedCatalog(args: CliArgs, index: IndexChoice): Promise<Catalog> {
	return readSessionCatalog(args.agentDir, process.cwd(), index);
}

async function isFile(path: string): Promise<boolean> {
	try {
		return (await stat(path)).isFile();
	} catch {
		return false;
	}
}

/** `pi-condense-vscode 0.1.0 (engine: pi-condense 2.0.0–2.9.1; bundled pi-ai 1.6.0)`. */
function versionText(): string {
	return `pi-condense-vscode ${PI_CONDENSE_VERSION} (follows pi-condense ${KNOWN_RELEASES[0] ?? ''}–${LATEST_RELEASE}; bundled pi-ai ${PI_CONDENSE_BUNDLED_PI_AI_VERSION}; Node ${process.version})`;
}

/** Says on stderr what is odd about the installed pi-condense (several copies, a newer release…). */
function warnAbout(resolution: ReleaseResolution): ReleaseResolution {
	for (const warning of resolution.warnings) {
		process.stderr.write(`pi-condense: warning: ${releaseWarningText(warning, piHome(process.env))}\n`);
	}
	return resolution;
}
