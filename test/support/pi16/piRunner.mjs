// Runs Pi 1.6.0's own session code (`@earendil-works/pi-coding-agent`, a dev dependency) on session texts and
// prints what it reads, as JSON on stdout, for the parity tests. Pi 1.x needs Node >= 22.19: this script is
// run by `test/support/pi16.ts` with the Node that `test/harness/nodeRuntime.mjs` provides, never bundled.
//
// stdin: {"requests":[{"text":"<session jsonl>"} | {"path":"<file>"} | {"text", "sent":[...]} | {"text", "appendName"}]}
//   text  a session file's text, opened from a private temporary copy (Pi rewrites a file it migrates or
//         cannot read); path  a file opened where it is (a file written by the code under test: checked, not
//         changed, since nothing is migrated in a version 3 file with a valid header).
//   appendName  Pi's /name on a copy of `text`: answered with the bytes Pi appended ({"appended"}).
//   sent  optional: messages a `context` handler returned for this session; answered with Pi's own restoring
//         of the system messages around them (`restored`).
// stdout: {"pi":"1.6.0","node":"22.x","results":[{...}]}, one result per request, or {"error":...} for one
//         Pi could not read.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const pi = await import('@earendil-works/pi-coding-agent');
const piAi = await import('@earendil-works/pi-ai');
// The package exports no ./package.json: its root is two folders above its main module (dist/index.js).
const piRoot = dirname(dirname(fileURLToPath(import.meta.resolve('@earendil-works/pi-coding-agent'))));
const piVersion = JSON.parse(readFileSync(join(piRoot, 'package.json'), 'utf8')).version;

function treeShape(nodes) {
	return nodes.map((node) => ({ id: node.entry.id, type: node.entry.type, label: node.label, children: treeShape(node.children) }));
}

function sameMessages(left, right) {
	return left.length === right.length && left.every((message, index) => message === right[index]);
}

/**
 * Pi's step after a `context` handler (its extension runner, `restoreSystemMessages`): an unchanged
 * conversation keeps the system messages where they are; a changed one gets one leading system message
 * replayed from all of them (pi-ai's `getCurrentSystemMessage`). `returned` is compared by identity, as
 * Pi compares it, so an unchanged list is passed as the very objects it was given.
 */
function restored(messages, sent) {
	const visible = messages.filter((message) => message.role !== 'system');
	const returned = sent === 'unchanged' ? visible : sent;
	if (sameMessages(returned, visible)) {
		return messages;
	}
	const head = piAi.getCurrentSystemMessage(messages);
	return head ? [head, ...returned] : returned;
}

function read(manager, request) {
	const context = manager.buildSessionContext();
	const projection = manager.buildSessionProjection();
	const entries = manager.getEntries();
	return {
		header: manager.getHeader(),
		entries: entries.map((entry) => ({ id: entry.id, type: entry.type })),
		leafId: manager.getLeafId(),
		name: manager.getSessionName(),
		branch: manager.getBranch().map((entry) => entry.id),
		tree: treeShape(manager.getTree()),
		labels: Object.fromEntries(entries.map((entry) => [entry.id, manager.getLabel(entry.id)]).filter(([, label]) => label !== undefined)),
		context,
		projection: projection.entries.map((entry) => ({ id: entry.sourceEntry.id, type: entry.sourceEntry.type, messages: entry.messages.length })),
		llm: pi.convertToLlm(context.messages),
		system: piAi.getCurrentSystemMessage(context.messages) ?? null,
		...(request.sent === undefined ? {} : { restored: restored(context.messages, request.sent) }),
	};
}

/** Pi's own `/name`: the line its SessionManager appends for `name` to a private copy of `text`. */
function appendedName(request) {
	const dir = mkdtempSync(join(tmpdir(), 'pi16-name-'));
	try {
		const file = join(dir, 'session.jsonl');
		writeFileSync(file, request.text);
		pi.SessionManager.open(file, dir).appendSessionInfo(request.appendName);
		const text = readFileSync(file, 'utf8');
		return { appended: text.slice(request.text.length) };
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

function answer(request) {
	if (typeof request.appendName === 'string') {
		return appendedName(request);
	}
	if (typeof request.path === 'string') {
		const before = readFileSync(request.path, 'utf8');
		const result = read(pi.SessionManager.open(request.path, tmpdir()), request);
		return { ...result, unchanged: readFileSync(request.path, 'utf8') === before };
	}
	const dir = mkdtempSync(join(tmpdir(), 'pi16-parity-'));
	try {
		const file = join(dir, 'session.jsonl');
		writeFileSync(file, request.text);
		return read(pi.SessionManager.open(file, dir), request);
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

const chunks = [];
for await (const chunk of process.stdin) {
	chunks.push(chunk);
}
const { requests } = JSON.parse(Buffer.concat(chunks).toString('utf8'));
const results = requests.map((request) => {
	try {
		return answer(request);
	} catch (error) {
		return { error: error instanceof Error ? error.stack ?? error.message : String(error) };
	}
});
process.stdout.write(JSON.stringify({ pi: piVersion, node: process.versions.node, results }));
