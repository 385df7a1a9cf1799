/**
 * `pi-condense`: a command line over the engine. Prints what `/pruner` would show for a session
 * file and the exact context pi-condense would send, and runs `/pruner now` and `/pruner compact`
 * on idle sessions. Problems found in a session read by the read-only commands go to stderr as
 * `file:line: severity: message`. Exit codes: 0 on success (or nothing to do; problems or not), 1
 * when a flush was refused, failed or interrupted, 2 on bad usage or an unreadable session or
 * configuration file.
 */
import { FLUSH_COMMANDS, parseCliArgs, USAGE, UsageError } from './cli/cliArgs';
import { ConfigFileError, loadPruneConfig } from './cli/loadPruneConfig';
import { readCliSession, SessionFileError, sessionProblemLines } from './cli/cliSession';
import { runCommand } from './cli/runCommand';
import { runFlushCommand } from './cli/runFlushCommand';
import { runDemoCommand } from './cli/runDemoCommand';
import { loadRelease, sessionCwd } from './cli/loadRelease';
import { effectiveConfig, readingRules, releaseWarningText, type ReleaseResolution } from './engine/release';
import { piHome } from './node/release/resolveRelease';
import { errorMessage } from './base/errorMessage';

async function main(argv: readonly string[]): Promise<number> {
	if (argv.includes('--help') || argv.includes('-h')) {
		process.stdout.write(`${USAGE}\n`);
		return 0;
	}
	if (argv[0] === 'demo') {
		return runDemoCommand(argv.slice(1));
	}
	try {
		const args = parseCliArgs(argv);
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
			const output = await runFlushCommand(args, context, controller.signal);
			process.stdout.write(output.stdout);
			process.stderr.write(output.stderr);
			return output.exitCode;
		}
		const session = await readCliSession(args.sessionFile, rules);
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

/** Says on stderr what is odd about the installed pi-condense (several copies, a newer release…). */
function warnAbout(resolution: ReleaseResolution): ReleaseResolution {
	for (const warning of resolution.warnings) {
		process.stderr.write(`pi-condense: warning: ${releaseWarningText(warning, piHome(process.env))}\n`);
	}
	return resolution;
}

main(process.argv.slice(2)).then((code) => {
	process.exitCode = code;
}, (error: unknown) => {
	process.stderr.write(`pi-condense: ${error instanceof Error ? error.stack ?? error.message : errorMessage(error)}\n`);
	process.exitCode = 1;
});
