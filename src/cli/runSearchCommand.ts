/**
 * `pi-condense search <words> [--json] [--limit N] [--agent-dir DIR]`: the sessions and the
 * messages where all the words occur, best first, from the session index (brought up to date
 * first). Words of three letters or more also find longer words that start with them.
 */
import { parseArgs } from 'node:util';
import { homedir } from 'node:os';
import { relativeTime } from '../base/relativeTime';
import { shortenHome } from '../engine/views';
import { searchHistory, type SessionHits } from '../node/history/historySearch';
import { printable, type Snippet } from '../engine/history';
import { errorMessage } from '../base/errorMessage';
import { UsageError } from './cliArgs';
import { readIndexedCatalog } from './indexedCatalog';
import type { IndexChoice } from './indexOptions';

export async function runSearchCommand(argv: readonly string[], choice: IndexChoice): Promise<number> {
	const args = searchArgs(argv);
	if (choice.kind === 'off') {
		throw new UsageError('search needs the session index: leave out --no-index (and unset PI_CONDENSE_INDEX=off)');
	}
	const { index, locations } = await readIndexedCatalog(args.agentDir, process.cwd(), choice);
	if (!index) {
		process.stderr.write('pi-condense: search needs the session index, which cannot be used here (see above)\n');
		return 1;
	}
	try {
		const results = await searchHistory(index, args.words, { sessions: args.limit, roots: locations.roots.map((root) => root.path) });
		process.stdout.write(`${args.json ? JSON.stringify(results.map(jsonOf), null, 2) : searchText(results, args.words, process.stdout.isTTY === true)}\n`);
		return 0;
	} finally {
		await index.close();
	}
}

interface SearchArgs {
	readonly words: string;
	readonly json: boolean;
	readonly limit: number;
	readonly agentDir: string | undefined;
}

function searchArgs(argv: readonly string[]): SearchArgs {
	let parsed;
	try {
		parsed = parseArgs({ args: [...argv], allowPositionals: true, strict: true, options: { json: { type: 'boolean' }, limit: { type: 'string' }, 'agent-dir': { type: 'string' } } });
	} catch (error) {
		throw new UsageError(`search: ${errorMessage(error)}`);
	}
	const words = parsed.positionals.join(' ').trim();
	if (words === '') {
		throw new UsageError('search needs the words to look for: pi-condense search <words>');
	}
	const limit = parsed.values.limit === undefined ? 20 : Number(parsed.values.limit);
	if (!Number.isInteger(limit) || limit < 1) {
		throw new UsageError('--limit needs a number of sessions (1 or more)');
	}
	return { words, json: parsed.values.json ?? false, limit, agentDir: parsed.values['agent-dir'] };
}

function searchText(results: readonly SessionHits[], words: string, tty: boolean): string {
	if (results.length === 0) {
		return `No message of a Pi session holds all of: ${words}`;
	}
	const now = Date.now();
	return results.map((session) => [
		`${printable(session.title)} · ${printable(session.id.slice(0, 8))} · ${relativeTime(session.modified, now)} · ${printable(shortenHome(session.cwd, homedir()))}`,
		...session.messages.map((message) => `  line ${message.line} · ${message.role}${message.time === undefined ? '' : ` · ${relativeTime(message.time, now)}`}${message.snippet ? `\n    ${marked(message.snippet, tty)}` : ''}`),
		`  ${printable(session.path)}`,
	].join('\n')).join('\n\n');
}

/** The snippet with its words in bold on a terminal. */
function marked(snippet: Snippet, tty: boolean): string {
	if (!tty) {
		return snippet.text;
	}
	let out = '';
	let at = 0;
	for (const [start, end] of snippet.marks) {
		out += `${snippet.text.slice(at, start)}\x1b[1m${snippet.text.slice(start, end)}\x1b[22m`;
		at = end;
	}
	return out + snippet.text.slice(at);
}

function jsonOf(session: SessionHits): unknown {
	return {
		id: session.id,
		path: session.path,
		project: session.cwd,
		title: session.title,
		lastActivity: new Date(session.modified).toISOString(),
		messages: session.messages.map((message) => ({
			line: message.line,
			entryId: message.entryId,
			role: message.role,
			time: message.time === undefined ? undefined : new Date(message.time).toISOString(),
			score: message.score,
			text: message.snippet?.text,
			marks: message.snippet?.marks,
		})),
	};
}
