/**
 * `pi-condense`, the entry (`dist/cli.js`). `list` (what a prompt, a script or a user runs most, and
 * wants at once) is answered by this small bundle: on a warm index it reads the index's list snapshot
 * and a `stat` per file, without loading the rest of the command line or SQLite. Every other command,
 * and any `list` whose arguments are not plain, runs the whole command line
 * (`src/cli/commandLine.ts`, built to `dist/cli-commands.js`), which says what is wrong with them.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { parseCliArgs, type CliArgs } from './cli/cliArgs';
import { takeIndexOptions, type IndexChoice } from './cli/indexOptions';
import { readSessionCatalog } from './cli/indexedCatalog';
import { listJson, listText } from './cli/sessionCatalog';
import { errorMessage } from './base/errorMessage';

/** The bundle of the whole command line, beside this one. */
const COMMANDS_FILE = 'cli-commands.js';

interface CommandLine {
	runCommandLine(argv: readonly string[]): Promise<number>;
}

async function main(argv: readonly string[]): Promise<number> {
	const list = plainList(argv);
	if (list) {
		const catalog = await readSessionCatalog(list.args.agentDir, process.cwd(), list.index);
		process.stdout.write(`${list.args.json ? listJson(catalog) : listText(catalog)}\n`);
		return 0;
	}
	const commandsPath = join(__dirname, COMMANDS_FILE);
	const commands = createRequire(commandsPath)(commandsPath) as CommandLine;
	return commands.runCommandLine(argv);
}

/** The arguments of a `list` this entry answers itself; undefined for anything else (help, a usage error…). */
function plainList(argv: readonly string[]): { readonly args: CliArgs; readonly index: IndexChoice } | undefined {
	if (argv.some((arg) => ['--help', '-h', '--version', '-v'].includes(arg)) || argv[0] === 'demo') {
		return undefined;
	}
	try {
		const { index, rest } = takeIndexOptions(argv);
		const args = parseCliArgs(rest);
		return args.command === 'list' ? { args, index } : undefined;
	} catch {
		return undefined;
	}
}

main(process.argv.slice(2)).then((code) => {
	process.exitCode = code;
}, (error: unknown) => {
	process.stderr.write(`pi-condense: ${error instanceof Error ? error.stack ?? error.message : errorMessage(error)}\n`);
	process.exitCode = 1;
});
