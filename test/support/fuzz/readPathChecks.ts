/**
 * Everything that reads a session, run on one (mutated) file, with the invariants each must keep.
 * Returns the broken invariants as sentences; a thrown error is caught by the caller and is itself a
 * failure. Used by the fuzz worker (bounded and stress runs).
 *
 * Invariants: the model reads every line that is not JSON as an error diagnostic at its line; every
 * diagnostic names a line of the file; an incremental read equals a cold read; the tree holds every
 * entry exactly once; the branch has no repeated entry and ends at the leaf; state, render, status,
 * tree, stats, pending capture, recovery and every CLI command run; the write path refuses any file
 * with diagnostics and leaves its bytes alone; a clean file takes our entries and still reads cleanly.
 */
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { parseCliArgs } from '../../../src/cli/cliArgs';
import { readCliSession, SessionFileError, sessionProblemLines } from '../../../src/cli/cliSession';
import { MAX_PROBLEM_LINES } from '../../../src/cli/sessionProblems';
import { runCommand } from '../../../src/cli/runCommand';
import { recoverOutputs, statsText, summaryNodeLabel } from '../../../src/engine/condense';
import { SessionInsight } from '../../../src/engine/views/sessionInsight';
import { releaseDefaults } from '../../../src/engine/config/defaults';
import { releaseRules, type ReleaseRules } from '../../../src/engine/release/releases';
import type { ContextPruneConfig } from '../../../src/engine/config/types';
import { followRelease } from '../../../src/engine/release';
import { appendToSession, buildSessionContextSteps, getBranchSteps, getTree, parseSessionSteps, splitJsonlLines, type SessionModel } from '../../../src/engine/session';
import { EMPTY_SUMMARY, summarizeLines } from '../../../src/engine/session/summary';
import { readSessionFile } from '../../../src/node/sessions/discoverSessions';
import { writeEntriesToSession } from '../../../src/node/write';
import type { Random } from '../random';
import { noPiRunning } from '../tempSession';
import { observableContext } from '../sessionModelCheck';
import { runSteps } from '../../../src/engine/steps';
import { testWork } from '../testWork';

export interface ReadPathReport {
	readonly problems: readonly string[];
	readonly diagnostics: number;
	readonly entries: number;
	/** What the write path did: `refused:<code>` or `written`. */
	readonly write: string;
}

/** Releases whose rules differ most: id-union chains and the live thinking strip, the flush boundary, positional chains and the sweep. */
const RELEASES: readonly ReleaseRules[] = [releaseRules('2.0.0'), releaseRules('2.4.3'), releaseRules('2.9.1')];

function configsFor(rules: ReleaseRules): readonly ContextPruneConfig[] {
	const defaults = releaseDefaults(rules);
	return [
		{ ...defaults, enabled: true },
		{ ...defaults, enabled: true, chainCompression: { ...defaults.chainCompression, rollingWindow: 0 }, thinkingStrip: { enabled: true, keepLastTurns: 1 }, purgeErrors: { enabled: true, cooldownTurns: 0, minArgChars: 0 } },
		defaults,
	];
}

/** The read-only commands, as argument lists after the session file (query gets a ref added). */
const COMMANDS: readonly (readonly string[])[] = [['status'], ['stats'], ['tree'], ['preview'], ['preview', '--json'], ['preview', '--json', '--before'], ['query']];

export async function checkReadPaths(path: string, random: Random): Promise<ReadPathReport> {
	const bytes = readFileSync(path);
	const text = bytes.toString('utf8');
	const problems: string[] = [];
	const model = runSteps(parseSessionSteps(text));
	problems.push(...checkDiagnostics(text, model));
	problems.push(...checkIncremental(text, model, random));
	problems.push(...checkTreeAndBranch(model));
	problems.push(...await checkListing(path, text, random));
	runSteps(buildSessionContextSteps(model));
	problems.push(...await checkCli(path, model, random));
	const write = await checkWrite(path, bytes, model, problems);
	return { problems, diagnostics: model.diagnostics.length, entries: model.entries.length, write };
}

/** Lines an independent reader finds unparsable (Pi's rules: split on `\n`, skip blanks, trim line 1). */
function unparsableLines(text: string): number[] {
	const lines = text.split('\n');
	lines.pop(); // the unterminated tail is never read
	const bad: number[] = [];
	let first = true;
	lines.forEach((line, i) => {
		if (line.trim() === '') {
			return;
		}
		try {
			JSON.parse(first ? line.trimStart() : line);
		} catch {
			bad.push(i + 1);
		}
		first = false;
	});
	return bad;
}

function checkDiagnostics(text: string, model: SessionModel): string[] {
	const problems: string[] = [];
	for (const d of model.diagnostics) {
		if (!Number.isInteger(d.line) || d.line < 1 || d.line > model.lineCount) {
			problems.push(`diagnostic outside the file (line ${d.line} of ${model.lineCount}): ${d.message}`);
		}
		if (typeof d.message !== 'string' || d.message.length === 0) {
			problems.push(`diagnostic at line ${d.line} has no message`);
		}
	}
	const errorLines = new Set(model.diagnostics.filter((d) => d.severity === 'error').map((d) => d.line));
	for (const line of unparsableLines(text)) {
		if (!errorLines.has(line)) {
			problems.push(`line ${line} is not JSON but has no error diagnostic`);
		}
	}
	if (model.header === undefined && model.entries.length > 0) {
		problems.push('entries without a header');
	}
	return problems;
}

/** The file read in two steps (a random cut, as a watcher sees it) must equal the cold read. */
function checkIncremental(text: string, cold: SessionModel, random: Random): string[] {
	const cut = random.int(0, text.length);
	const first = runSteps(parseSessionSteps(text.slice(0, cut)));
	const consumed = splitJsonlLines(text.slice(0, cut)).consumedLength;
	const next = appendToSession(first, text.slice(consumed));
	if (next === undefined) {
		return [];
	}
	const fields = ['header', 'version', 'entries', 'diagnostics', 'leafId', 'name', 'lineCount', 'pendingTail'] as const;
	const differing = fields.filter((field) => !isDeepStrictEqual(next[field], cold[field]));
	if (!isDeepStrictEqual(observableContext(next), observableContext(cold))) {
		differing.push('context' as never);
	}
	return differing.length === 0 ? [] : [`incremental read (cut at ${cut}) differs from a cold read in: ${differing.join(', ')}`];
}

/** The session list's view: the header line read as discovery reads it, and the summary, cold and in steps. */
async function checkListing(path: string, text: string, random: Random): Promise<string[]> {
	const problems: string[] = [];
	const listed = await readSessionFile(path, { path: dirname(path), layout: 'flat', source: 'default' });
	if (listed !== undefined && !('header' in listed) && (typeof listed.reason !== 'string' || listed.reason === '')) {
		problems.push('an unlisted session file without a reason');
	}
	const cut = random.int(0, text.length);
	const consumed = splitJsonlLines(text.slice(0, cut)).consumedLength;
	const stepped = summarizeLines(summarizeLines(EMPTY_SUMMARY, text.slice(0, consumed)), text.slice(consumed));
	if (!isDeepStrictEqual(stepped, summarizeLines(EMPTY_SUMMARY, text))) {
		problems.push(`the list summary read in steps (cut at ${consumed}) differs from a cold read`);
	}
	return problems;
}

function checkTreeAndBranch(model: SessionModel): string[] {
	const problems: string[] = [];
	const tree = getTree(model);
	const seen = new Set<unknown>();
	const stack = [...tree.roots];
	while (stack.length > 0) {
		const node = stack.pop() as (typeof stack)[number];
		if (seen.has(node.entry)) {
			problems.push(`tree shows entry ${node.entry.id} twice`);
			break;
		}
		seen.add(node.entry);
		stack.push(...node.children);
	}
	if (seen.size !== model.entries.length) {
		problems.push(`tree holds ${seen.size} of ${model.entries.length} entries`);
	}
	const branch = runSteps(getBranchSteps(model));
	if (new Set(branch).size !== branch.length) {
		problems.push('branch repeats an entry');
	}
	if (model.entries.length > 0 && branch.at(-1) !== model.entries.at(-1)) {
		problems.push('branch does not end at the leaf');
	}
	return problems;
}

async function checkCli(path: string, model: SessionModel, random: Random): Promise<string[]> {
	let session;
	const rules = random.pick(RELEASES);
	const configs = configsFor(rules);
	const config = random.pick(configs);
	try {
		session = await readCliSession(testWork, path, config, rules);
	} catch (error) {
		if (error instanceof SessionFileError && model.header === undefined) {
			return model.diagnostics.length > 0 && !error.message.includes(`${path}:`) ? ['no-header error does not list the problems by line'] : [];
		}
		throw error;
	}
	const problems: string[] = [];
	const lines = sessionProblemLines(session);
	const state = runSteps(session.insight.stateSteps());
	const shown = [...model.diagnostics, ...state.diagnostics].sort((a, b) => a.line - b.line).slice(0, MAX_PROBLEM_LINES);
	for (const d of shown) {
		if (d.line < 1) {
			problems.push(`diagnostic without a line: ${d.message}`);
		} else if (!lines.some((line) => line.startsWith(`${path}:${d.line}: `))) {
			problems.push(`diagnostic at line ${d.line} is not printed as file:line`);
		}
	}
	const refs = [...state.refs.keys(), ...[...state.keysByBareId.keys()].slice(0, 3), 't999', 'call_nowhere', '', '../etc/passwd'];
	for (const other of configs) {
		const insight = new SessionInsight(session.model, other, rules);
		const preview = runSteps(insight.previewSteps());
		runSteps(insight.pendingSteps());
		if (typeof preview.statusText !== 'string') {
			problems.push('status text is not a string');
		}
	}
	for (const node of runSteps(session.insight.treeSteps())) {
		summaryNodeLabel(node, (ms) => new Date(ms).toISOString());
	}
	statsText(state.stats);
	await recoverOutputs(state, refs, session.blobs);
	for (const [command = '', ...options] of COMMANDS) {
		const args = { ...parseCliArgs([command, path, ...options, ...(command === 'query' ? [random.pick(refs) || 't1'] : [])]), sessionFile: path };
		const output = await runCommand(args, session, { config, resolution: followRelease({ copies: [], searched: [], warnings: [] }, { release: rules.version, origin: 'flag' }), rules });
		if (typeof output !== 'string') {
			problems.push(`${command} returned no text`);
		}
	}
	return problems;
}

async function checkWrite(path: string, before: Buffer, model: SessionModel, problems: string[]): Promise<string> {
	const result = await writeEntriesToSession(testWork, path, [{ type: 'custom', customType: 'pi-condense-fuzz', data: { n: 1 } }], {
		quietMs: 0, maxWaitMs: 0, checkPiHolders: noPiRunning,
	});
	// What cannot change what is sent (an entry type only a newer Pi knows) does not stop a write.
	const blocking = model.diagnostics.filter((diagnostic) => diagnostic.writeSafe !== true);
	const after = readFileSync(path);
	if (result.kind === 'refused') {
		if (!after.equals(before)) {
			problems.push(`refused write (${result.refusal.code}) changed the file`);
		}
		if (blocking.length > 0 && !['no-header', 'not-v3', 'diagnostics'].includes(result.refusal.code)) {
			problems.push(`a file with diagnostics was refused for another reason: ${result.refusal.code}`);
		}
		if (result.refusal.code === 'diagnostics' && !/line \d+/.test(result.refusal.message)) {
			problems.push(`the diagnostics refusal names no line: ${result.refusal.message}`);
		}
		return `refused:${result.refusal.code}`;
	}
	if (blocking.length > 0) {
		problems.push(`wrote (${result.kind}) to a file with ${blocking.length} diagnostic(s): line ${blocking[0]?.line}: ${blocking[0]?.message}`);
	}
	if (result.kind !== 'written') {
		problems.push(`write was ${result.kind} with no other writer: ${result.message}`);
		return result.kind;
	}
	const written = result.entries.map((entry) => entry.line).join('');
	if (!after.equals(Buffer.concat([before, Buffer.from(written, 'utf8')]))) {
		problems.push('the write changed bytes other than appending our line');
	}
	const reread = runSteps(parseSessionSteps(after.toString('utf8')));
	if (reread.diagnostics.length !== model.diagnostics.length || reread.entries.length !== model.entries.length + 1 || reread.leafId !== result.entries.at(-1)?.entry.id) {
		problems.push(`after our write the file reads with ${reread.diagnostics.length} diagnostic(s), ${reread.entries.length} entries, leaf ${reread.leafId}`);
	}
	return 'written';
}
