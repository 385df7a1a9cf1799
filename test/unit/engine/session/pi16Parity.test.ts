/**
 * Our session model against Pi 1.6.0's own SessionManager, `buildSessionContext` / `buildSessionProjection`
 * and `convertToLlm`, run on the same text (Pi 1.x runs on Node >= 22.19: `test/support/pi16.ts` runs it in
 * a child process on a Node from npm when ours is older). Every fixture, then edge cases of what Pi 1.x
 * added: system messages, context edits, usage entries, compaction checkpoints and the retain-none form.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { buildSessionContextSteps, convertToLlm, getBranchSteps, getTree, parseSessionSteps, type SessionEntry, type SessionModel, type SessionTreeNode } from '../../../../src/engine/session';
import { piCondenseSessionsDir, realSessionFiles } from '../../../support/paths';
import { readWithPi16, type Pi16Reading } from '../../../support/pi16';
import { SessionBuilder, text, thinking, toolCall } from '../../../support/sessionBuilder';
import { runSteps } from '../../../../src/engine/steps';

/** JSON as Pi's runner prints it (an `undefined` field is absent there). */
const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value)) as unknown;
const typeOf = (entry: SessionEntry): string => entry.type === 'opaque' ? entry.originalType : entry.type;

interface ShapeNode {
	readonly id: string;
	readonly type: string;
	readonly label?: string;
	readonly children: readonly ShapeNode[];
}

/** A tree as a flat list (roots, then each node's children in order): a 1,000-entry chain is too deep to compare nested. */
function flatTree(roots: readonly ShapeNode[]): string[] {
	const lines: string[] = [];
	const stack = [...roots].reverse().map((node) => ({ node, depth: 0 }));
	while (stack.length > 0) {
		const { node, depth } = stack.pop() as { node: ShapeNode; depth: number };
		lines.push(`${depth} ${node.id} ${node.type} ${node.label ?? ''}`);
		for (let i = node.children.length - 1; i >= 0; i--) {
			stack.push({ node: node.children[i] as ShapeNode, depth: depth + 1 });
		}
	}
	return lines;
}

function ourShape(nodes: readonly SessionTreeNode[]): ShapeNode[] {
	return nodes.map((node) => ({ id: node.entry.id, type: typeOf(node.entry), ...(node.label === undefined ? {} : { label: node.label }), children: ourShape(node.children) }));
}

/** Pi's projection entries that give messages, as (source id, message count); ours grouped from `sources`. */
function projectionOf(model: SessionModel): { id: string; messages: number }[] {
	const groups: { id: string; messages: number }[] = [];
	const sources = runSteps(runSteps(buildSessionContextSteps(model)).sources.entriesSteps());
	sources.forEach((entry, i) => {
		const last = groups.at(-1);
		if (last && sources[i - 1] === entry) {
			last.messages++;
		} else {
			groups.push({ id: entry.id, messages: 1 });
		}
	});
	return groups;
}

function assertSame(ours: SessionModel, pi: Pi16Reading, label: string): void {
	assert.equal(pi.error, undefined, `${label}: Pi failed: ${pi.error ?? ''}`);
	const context = runSteps(buildSessionContextSteps(ours));
	assert.deepStrictEqual(asJson(context.messages), pi.context.messages, `${label}: context messages`);
	assert.equal(context.thinkingLevel, pi.context.thinkingLevel, `${label}: thinking level`);
	assert.deepStrictEqual(asJson(context.model), pi.context.model, `${label}: model`);
	assert.deepStrictEqual(asJson(convertToLlm(context.messages)), pi.llm, `${label}: converted LLM messages`);
	assert.deepStrictEqual(projectionOf(ours), pi.projection.filter((entry) => entry.messages > 0).map(({ id, messages }) => ({ id, messages })), `${label}: message sources`);
	assert.deepStrictEqual(ours.entries.map((e) => ({ id: e.id, type: typeOf(e) })), pi.entries, `${label}: entries`);
	assert.deepStrictEqual(runSteps(getBranchSteps(ours)).map((e) => e.id), pi.branch, `${label}: branch`);
	assert.equal(ours.leafId, pi.leafId, `${label}: leaf`);
	assert.equal(ours.name, pi.name ?? undefined, `${label}: name`);
	assert.deepStrictEqual(flatTree(ourShape(getTree(ours).roots)), flatTree(pi.tree as ShapeNode[]), `${label}: tree`);
	for (const entry of ours.entries) {
		assert.equal(ours.labelOf(entry.id), pi.labels[entry.id], `${label}: label of ${entry.id}`);
	}
}

/** Fixture files whose ids Pi keeps as they are (a v1 file gets random ids in each reader's migration). */
function fixtureFiles(): string[] {
	const reference = readdirSync(piCondenseSessionsDir, { withFileTypes: true })
		.filter((entry) => entry.isDirectory())
		.map((entry) => join(piCondenseSessionsDir, entry.name, 'session.jsonl'));
	return [...realSessionFiles(), ...reference].filter((file) => runSteps(parseSessionSteps(readFileSync(file, 'utf8'))).version === 3).sort();
}

const system = (sections: Record<string, string | null>, extra: Record<string, unknown> = {}): Record<string, unknown> => ({ role: 'system', content: '', sections, ...extra });
const tool = (name: string): Record<string, unknown> => ({ name, description: `the ${name} tool`, parameters: { type: 'object', properties: {} } });

/** Pi 1.x sessions built entry by entry: each shows one rule of Pi 1.6.0's context building. */
const cases: Record<string, () => string> = {
	'a leading system message, a mid-conversation one and a section removed': () => {
		const s = new SessionBuilder();
		s.entry({ type: 'model_change', provider: 'anthropic', modelId: 'claude-sonnet-4-5' });
		s.message(system({ preamble: 'You are Pi.', tools: '<tools/>' }, { toolsAdded: [tool('read'), tool('bash')] }));
		s.user('first');
		s.assistant([text('one')]);
		s.message(system({ skills: '<skills/>', tools: null }, { toolsRemoved: [{ name: 'bash' }], content: [{ type: 'text', text: 'Also: be brief.' }] }));
		s.user('second');
		s.assistant([text('two')]);
		return s.text();
	},
	'context edits: omitted, replaced by a string on each role, replaced twice (the latest wins)': () => {
		const s = new SessionBuilder();
		s.message(system({ preamble: 'p' }));
		const user = s.user('original prompt');
		const call = s.assistant([thinking('plan'), toolCall('c1', 'bash', { command: 'ls' })]);
		const result = s.toolResult('c1', 'bash', 'a.txt');
		const reply = s.assistant([text('done')]);
		const custom = s.entry({ type: 'custom_message', customType: 'ext', content: 'injected', display: false });
		const second = s.user('another');
		s.assistant([text('again')]);
		s.entry({ type: 'context_edit', targetId: result, replacement: { content: 'result, shortened' } });
		s.entry({ type: 'context_edit', targetId: reply, replacement: { content: 'first replacement' } });
		s.entry({ type: 'context_edit', targetId: user, replacement: { content: 'prompt as a string' } });
		s.entry({ type: 'context_edit', targetId: custom, replacement: { content: [{ type: 'text', text: 'custom replaced' }] } });
		s.entry({ type: 'context_edit', targetId: reply, replacement: { content: [{ type: 'text', text: 'second replacement' }] } });
		s.entry({ type: 'context_edit', targetId: second, replacement: null });
		s.entry({ type: 'context_edit', targetId: call, replacement: { content: 'the call, as text' } });
		s.entry({ type: 'usage', kind: 'cache_warm', provider: 'anthropic', model: 'claude-sonnet-4-5', usage: { input: 0, output: 0, cacheRead: 9, cacheWrite: 0, totalTokens: 9, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } } });
		s.entry({ type: 'usage', kind: 'something_new', provider: 'x', model: 'y', usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } } });
		return s.text();
	},
	'context edits are branch-relative: an edit on another branch does not apply': () => {
		const s = new SessionBuilder();
		const prompt = s.user('prompt');
		const answer = s.assistant([text('answer')]);
		s.entry({ type: 'context_edit', targetId: prompt, replacement: null });
		s.branchFrom(answer);
		s.user('follow-up on the unedited branch');
		s.assistant([text('fine')]);
		return s.text();
	},
	'an edit omitting a system message, a branch summary and a bash command; one replacing their content does nothing': () => {
		const s = new SessionBuilder();
		const sys = s.message(system({ preamble: 'p' }, { toolsAdded: [tool('read')] }));
		const summary = s.entry({ type: 'branch_summary', fromId: 'root', summary: 'explored A' });
		const bash = s.message({ role: 'bashExecution', command: 'ls', output: 'x', exitCode: 0, cancelled: false, truncated: false });
		const kept = s.entry({ type: 'branch_summary', fromId: 'root', summary: 'explored B' });
		const sys2 = s.message(system({ extra: 'e' }));
		s.user('q');
		s.entry({ type: 'context_edit', targetId: sys, replacement: null });
		s.entry({ type: 'context_edit', targetId: summary, replacement: null });
		s.entry({ type: 'context_edit', targetId: bash, replacement: { content: 'ignored' } });
		s.entry({ type: 'context_edit', targetId: kept, replacement: { content: 'ignored too' } });
		s.entry({ type: 'context_edit', targetId: sys2, replacement: { content: 'still ignored' } });
		return s.text();
	},
	'a compaction with a system checkpoint: system messages in the kept range are dropped, later ones kept': () => {
		const s = new SessionBuilder();
		s.message(system({ preamble: 'p1' }, { toolsAdded: [tool('read')] }));
		s.user('one');
		s.assistant([text('two')]);
		const kept = s.user('three');
		s.message(system({ skills: 's' }));
		s.assistant([text('four')]);
		s.entry({ type: 'compaction', summary: 'summary of one, two', firstKeptEntryId: kept, tokensBefore: 100, systemMessage: system({ preamble: 'p1', skills: 's' }, { toolsAdded: [tool('read')], timestamp: 1 }) });
		s.message(system({ late: 'added after the compaction' }));
		s.user('five');
		return s.text();
	},
	'a retain-none compaction (its own id as first kept entry) keeps nothing before it': () => {
		const s = new SessionBuilder();
		s.message(system({ preamble: 'p' }));
		s.user('one');
		s.assistant([text('two')]);
		const id = s.nextId();
		s.entry({ id, type: 'compaction', summary: 'all of it', firstKeptEntryId: id, tokensBefore: 50, systemMessage: system({ preamble: 'p' }, { timestamp: 2 }) });
		s.user('three');
		return s.text();
	},
	'an older compaction inside the kept range gives nothing; an edit before the kept range is not applied': () => {
		const s = new SessionBuilder();
		const one = s.user('one');
		s.entry({ type: 'context_edit', targetId: one, replacement: null });
		const two = s.assistant([text('two')]);
		s.entry({ type: 'compaction', summary: 'first', firstKeptEntryId: two, tokensBefore: 10 });
		const three = s.user('three');
		s.entry({ type: 'context_edit', targetId: three, replacement: { content: 'three, edited' } });
		s.assistant([text('four')]);
		const compaction = s.entry({ type: 'compaction', summary: 'second', firstKeptEntryId: two, tokensBefore: 20 });
		s.entry({ type: 'context_edit', targetId: compaction, replacement: { content: 'no effect on a summary' } });
		s.user('five');
		return s.text();
	},
	'an edit omitting the compaction omits its checkpoint and its summary': () => {
		const s = new SessionBuilder();
		s.user('one');
		const kept = s.assistant([text('two')]);
		const compaction = s.entry({ type: 'compaction', summary: 's', firstKeptEntryId: kept, tokensBefore: 10, systemMessage: system({ preamble: 'p' }, { timestamp: 3 }) });
		s.entry({ type: 'context_edit', targetId: compaction, replacement: null });
		s.user('three');
		return s.text();
	},
	'summary roles stored in message entries pass through as Pi 1.6.0 passes them': () => {
		const s = new SessionBuilder();
		s.user('q');
		s.message({ role: 'branchSummary', summary: 'a branch', fromId: 'root' });
		s.message({ role: 'compactionSummary', summary: 'earlier work', tokensBefore: 42 });
		s.assistant([text('a')]);
		return s.text();
	},
	'an unknown entry type from a newer Pi is kept and chained but gives nothing': () => {
		const s = new SessionBuilder();
		s.user('before');
		s.entry({ type: 'future_checkpoint', payload: { anything: true } });
		s.assistant([text('after')]);
		return s.text();
	},
};

describe('session model: parity with Pi 1.6.0 (its own code, on Node >= 22.19)', function () {
	this.timeout(300_000);
	let readings: Pi16Reading[] = [];
	const files = fixtureFiles();
	const built = Object.entries(cases).map(([name, build]) => ({ name, text: build() }));

	before(async () => {
		readings = await readWithPi16([...files.map((path) => ({ text: readFileSync(path, 'utf8') })), ...built.map(({ text: content }) => ({ text: content }))]);
	});

	it('covers every version 3 fixture, the Pi 1.6.0 reference sessions among them', () => {
		assert.ok(files.some((file) => file.includes('context-edits-pi-1.6.0')), files.join('\n'));
		assert.ok(files.length >= 10, `${files.length} fixtures`);
	});

	files.forEach((file, i) => {
		it(`reads ${file.split('/').slice(-2).join('/')} exactly as Pi 1.6.0 does`, () => {
			const ours = runSteps(parseSessionSteps(readFileSync(file, 'utf8')));
			assert.deepEqual(ours.diagnostics, [], 'a fixture reads without diagnostics');
			assertSame(ours, readings[i] as Pi16Reading, file);
		});
	});

	built.forEach(({ name, text: content }, i) => {
		it(`edge case: ${name}`, () => {
			const ours = runSteps(parseSessionSteps(content));
			assert.deepEqual(ours.diagnostics.filter((d) => d.newerPi === undefined), [], name);
			assertSame(ours, readings[files.length + i] as Pi16Reading, name);
		});
	});
});
