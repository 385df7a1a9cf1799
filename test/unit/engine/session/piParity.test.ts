/**
 * Our session model against Pi 0.73.1's own SessionManager + buildSessionContext + convertToLlm,
 * run on the same text in the same test (no stored snapshots).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { buildSessionContextSteps, convertToLlm, getBranchSteps, getTree, parseSessionSteps, type SessionEntry, type SessionModel, type SessionTreeNode } from '../../../../src/engine/session';
import { readWithPi, type PiReading } from '../../../support/pi';
import { realSessionFiles } from '../../../support/paths';
import { SessionBuilder, text, thinking, toolCall } from '../../../support/sessionBuilder';
import { runSteps } from '../../../../src/engine/steps';

/** Pi's ids are random after a v1 migration; compare shape by type (and original type for unknown entries). */
const typeOf = (entry: { type: string }): string => (entry as SessionEntry).type === 'opaque' ? (entry as unknown as { originalType: string }).originalType : entry.type;

function assertSameContext(ours: SessionModel, pi: PiReading, label: string): void {
	const context = runSteps(buildSessionContextSteps(ours));
	assert.deepStrictEqual(context.messages, pi.context.messages, `${label}: context messages`);
	assert.equal(context.thinkingLevel, pi.context.thinkingLevel, `${label}: thinking level`);
	assert.deepStrictEqual(context.model, pi.context.model, `${label}: model`);
	assert.deepStrictEqual(convertToLlm(context.messages), pi.convertToLlm(pi.context.messages as never), `${label}: converted LLM messages`);
}

function treeShape(nodes: readonly { entry: { id: string; type: string }; children: readonly unknown[]; label?: string }[]): unknown[] {
	return nodes.map((node) => ({
		id: node.entry.id,
		type: typeOf(node.entry),
		label: node.label,
		children: treeShape(node.children as SessionTreeNode[]),
	}));
}

function assertSameStructure(ours: SessionModel, pi: PiReading, label: string, idsAreStable: boolean): void {
	assert.deepStrictEqual(ours.entries.map(typeOf), pi.entries.map(typeOf), `${label}: entry types in file order`);
	assert.deepStrictEqual(runSteps(getBranchSteps(ours)).map(typeOf), pi.branch.map(typeOf), `${label}: branch`);
	assert.equal(ours.name, pi.name, `${label}: session name`);
	if (idsAreStable) {
		assert.deepStrictEqual(ours.entries.map((e) => e.id), pi.entries.map((e) => e.id), `${label}: entry ids`);
		assert.equal(ours.leafId, pi.leafId, `${label}: leaf`);
		assert.deepStrictEqual(treeShape(getTree(ours).roots), treeShape(pi.tree), `${label}: tree`);
		for (const entry of ours.entries) {
			assert.equal(ours.labelOf(entry.id), pi.labelOf(entry.id), `${label}: label of ${entry.id}`);
		}
	}
}

describe('session model: parity with Pi 0.73.1', function () {
	this.timeout(120000);

	for (const file of realSessionFiles()) {
		it(`reads ${basename(file)} exactly as Pi does`, async () => {
			const content = readFileSync(file, 'utf8');
			const ours = runSteps(parseSessionSteps(content));
			const pi = await readWithPi(content);
			assert.deepEqual(ours.diagnostics, [], 'a real session reads without diagnostics');
			assertSameContext(ours, pi, basename(file));
			assertSameStructure(ours, pi, basename(file), ours.version === 3);
		});
	}

	const cases: Record<string, () => string> = {
		'a branch: the leaf is the last entry in file order, not the deepest one': () => {
			const s = new SessionBuilder();
			s.entry({ type: 'model_change', provider: 'anthropic', modelId: 'claude-sonnet-4-5' });
			const first = s.user('first question');
			s.assistant([text('first answer')]);
			s.user('follow-up on the first branch');
			s.assistant([text('answer on the first branch')]);
			s.branchFrom(first);
			s.assistant([thinking('second try'), text('a different answer')]);
			return s.text();
		},
		'an orphan whose parent is missing becomes a root and the leaf walks from it': () => {
			const s = new SessionBuilder();
			s.user('hello');
			s.assistant([text('hi')]);
			s.branchFrom('deadbeef');
			s.user('orphaned question');
			s.assistant([text('orphaned answer')]);
			return s.text();
		},
		'a compaction whose first kept entry is off the path keeps nothing from before it': () => {
			const s = new SessionBuilder();
			const root = s.user('root');
			s.assistant([text('a')]);
			const offPath = s.user('side branch');
			s.branchFrom(root);
			s.assistant([text('b')]);
			s.user('c');
			s.entry({ type: 'compaction', summary: 'summary of a, b, c', firstKeptEntryId: offPath, tokensBefore: 1234 });
			s.user('after compaction');
			return s.text();
		},
		'a compaction keeps the path from its first kept entry, and only the last compaction counts': () => {
			const s = new SessionBuilder();
			s.user('one');
			s.assistant([text('two')]);
			const kept = s.user('three');
			s.entry({ type: 'compaction', summary: 'first', firstKeptEntryId: kept, tokensBefore: 10 });
			s.assistant([text('four')]);
			const kept2 = s.user('five');
			s.assistant([text('six')]);
			s.entry({ type: 'compaction', summary: 'second', firstKeptEntryId: kept2, tokensBefore: 20 });
			s.user('seven');
			return s.text();
		},
		'a label is set, moved and cleared (the cleared line has no label key)': () => {
			const s = new SessionBuilder();
			const a = s.user('a');
			const b = s.assistant([text('b')]);
			s.entry({ type: 'label', targetId: a, label: 'checkpoint' });
			s.entry({ type: 'label', targetId: b, label: 'answer' });
			s.entry({ type: 'label', targetId: a });
			s.entry({ type: 'session_info', name: '  Named session  ' });
			return s.text();
		},
		'an unknown entry type is kept and chained but never reaches the context': () => {
			const s = new SessionBuilder();
			s.user('before');
			s.entry({ type: 'future_entry_kind', payload: { anything: true } });
			s.assistant([text('after the unknown entry')]);
			return s.text();
		},
		'a malformed middle line is skipped and the chain continues around it': () => {
			const s = new SessionBuilder();
			s.user('q');
			s.rawLine('{"type":"message","id":"broken",');
			s.assistant([text('a')]);
			return s.text();
		},
		'a half-written last line is not read': () => {
			const s = new SessionBuilder();
			s.user('q');
			s.assistant([text('a')]);
			return `${s.text()}{"type":"message","id":"partial","parentId":`;
		},
		'a byte-order mark before the header': () => {
			const s = new SessionBuilder();
			s.user('with BOM');
			return `\uFEFF${s.text()}`;
		},
		'CRLF line endings and U+2028/U+2029 inside strings': () => {
			const s = new SessionBuilder();
			s.user('line\u2028separator and paragraph\u2029separator');
			s.assistant([text('carriage\r\nreturns inside')]);
			return s.text().replace(/\n/g, '\r\n');
		},
		'an empty file': () => '',
		'a header-only file': () => new SessionBuilder().text(),
		'a first line that is not a header makes the whole file empty': () => {
			const s = new SessionBuilder();
			s.user('lost');
			return `{"type":"message","id":"x"}\n${s.text()}`;
		},
		'tool calls, custom messages, branch summaries and user bash commands': () => {
			const s = new SessionBuilder();
			s.entry({ type: 'thinking_level_change', thinkingLevel: 'high' });
			s.user('run it');
			s.assistant([thinking('plan'), toolCall('toolu_1', 'bash', { command: 'ls' })]);
			s.toolResult('toolu_1', 'bash', 'a.txt\n');
			s.entry({ type: 'custom_message', customType: 'my-ext', content: 'injected', display: false });
			s.entry({ type: 'custom_message', customType: 'my-ext', content: [text('array content')], display: true, details: { x: 1 } });
			s.entry({ type: 'custom', customType: 'state', data: { n: 1 } });
			s.entry({ type: 'branch_summary', fromId: 'root', summary: '' });
			s.entry({ type: 'branch_summary', fromId: 'root', summary: 'explored another approach' });
			s.message({ role: 'bashExecution', command: 'git status', output: 'clean', exitCode: 0, cancelled: false, truncated: false });
			s.message({ role: 'bashExecution', command: 'secret', output: 'x', exitCode: 1, cancelled: false, truncated: false, excludeFromContext: true });
			s.message({ role: 'bashExecution', command: 'false', output: '', exitCode: 2, cancelled: false, truncated: true, fullOutputPath: '/tmp/out.txt' });
			s.entry({ type: 'model_change', provider: 'openai', modelId: 'gpt-5' });
			return s.text();
		},
		'a v2 file: hookMessage becomes a custom message': () => {
			const s = new SessionBuilder({ version: 2 });
			s.user('q');
			s.message({ role: 'hookMessage', customType: 'hook', content: 'from a hook', display: true });
			return s.text();
		},
		'a v1 file (no ids): entries are chained in file order and compaction indexes are mapped': () => {
			const header = JSON.stringify({ type: 'session', id: 'v1-session', timestamp: '2025-01-01T00:00:00.000Z', cwd: '/w', provider: 'anthropic', modelId: 'm', thinkingLevel: 'off' });
			const line = (obj: object) => JSON.stringify({ timestamp: '2025-01-01T00:00:01.000Z', ...obj });
			const user = (t: string) => line({ type: 'message', message: { role: 'user', content: [{ type: 'text', text: t }], timestamp: 1 } });
			return [header, user('one'), user('two'), user('three'), line({ type: 'compaction', summary: 's', firstKeptEntryIndex: 2, tokensBefore: 5 }), user('four')].map((l) => `${l}\n`).join('');
		},
	};

	for (const [name, build] of Object.entries(cases)) {
		it(`edge case: ${name}`, async () => {
			const content = build();
			const ours = runSteps(parseSessionSteps(content));
			const pi = await readWithPi(content);
			assertSameContext(ours, pi, name);
			assertSameStructure(ours, pi, name, ours.version >= 2);
		});
	}

	it('reports the malformed line, the invalid header and the unknown-role message with their line numbers', () => {
		const s = new SessionBuilder();
		s.user('q');
		s.rawLine('not json at all');
		s.message({ role: 'wizard', content: 'abracadabra' });
		const model = runSteps(parseSessionSteps(s.text()));
		assert.deepEqual(model.diagnostics.map((d) => [d.severity, d.line]), [['error', 3], ['warning', 4]]);
		const bad = runSteps(parseSessionSteps('{"type":"message"}\n{"type":"session","id":"x"}\n'));
		assert.equal(bad.header, undefined);
		assert.equal(bad.diagnostics[0]?.line, 1);
		assert.match(bad.diagnostics[0]?.message ?? '', /not a session header/);
	});

	it('ignores a complete but unterminated last line, which Pi would read (it may still be growing)', () => {
		const s = new SessionBuilder();
		s.user('q');
		const tail = JSON.stringify({ type: 'message', id: 'tail0001', parentId: s.leafId, timestamp: s.iso(), message: { role: 'user', content: 'late', timestamp: 1 } });
		const model = runSteps(parseSessionSteps(s.text() + tail));
		assert.equal(model.pendingTail, tail);
		assert.equal(model.entries.length, 1);
	});
});
