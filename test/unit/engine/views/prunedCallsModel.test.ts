import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pendingStatusText } from '../../../../src/engine/condense';
import { resolveConfig } from '../../../../src/engine/config/resolve';
import { parseSessionSteps } from '../../../../src/engine/session';
import { SessionInsight, type PreparedInsight } from '../../../../src/engine/views/sessionInsight';
import { buildPrunedCallsSteps, type PrunedNode } from '../../../../src/engine/views/prunedCallsModel';
import { runSteps } from '../../../../src/engine/steps';
import { statusLineText } from '../../../../src/engine/views/statusLine';
import { piCondenseSessionsDir } from '../../../support/paths';
import { SessionBuilder } from '../../../support/sessionBuilder';
import { LATEST, R200 } from '../../../support/releases';

const basicDir = join(piCondenseSessionsDir, 'basic');

function basicInsight(): PreparedInsight {
	const model = runSteps(parseSessionSteps(readFileSync(join(basicDir, 'session.jsonl'), 'utf8')));
	const { config } = resolveConfig(JSON.parse(readFileSync(join(basicDir, 'contextPrune.json'), 'utf8')), R200);
	return runSteps(new SessionInsight(model, config, R200).prepare());
}

function labels(nodes: readonly PrunedNode[]): string[] {
	return nodes.map((node) => node.label);
}

function children(node: PrunedNode | undefined): readonly PrunedNode[] {
	return node && 'children' in node ? runSteps(node.children()) : [];
}

describe('buildPrunedCalls on a session written by real pi-condense', () => {
	const roots = runSteps(buildPrunedCallsSteps(basicInsight(), () => 'TIME'));

	it('lists the summaries with their tool calls by ref, in branch order', () => {
		const summaries = roots.filter((node) => node.kind === 'summary');
		assert.equal(summaries.length, 4);
		// Its refs, the output it replaced and its own length; what it says in the description, not only in the tooltip.
		assert.equal(summaries[0]?.label, 't1–t2 · 690 → 190');
		assert.equal(summaries[0]?.kind === 'summary' && summaries[0].header, '[pruner] Turn 0 summary (2 tools · 190 chars · original 690) · TIME');
		assert.ok((summaries[0]?.description ?? '').length > 10 && !(summaries[0]?.description ?? '').includes('\n'), summaries[0]?.description);
		assert.deepEqual(labels(summaries).map((label) => label.split(' · ')[0]), ['t1–t2', 't3–t4', 't6–t7', 't8']);
		assert.deepEqual(labels(children(summaries[1])), ['t3 read(path="src/app.js") · 265 chars', 't4 read(path="src/util.js") · 259 chars']);
		const t6 = children(summaries[2])[0];
		assert.ok(t6?.label.startsWith('t6 edit(path="src/app.js", edits=[{') && t6.label.includes('…) · 47 chars'), `long arguments are cut: ${t6?.label}`);
	});

	it('groups compressed chains with their refs, dedup aliases and spilled outputs', () => {
		const group = (label: string): PrunedNode | undefined => roots.find((node) => node.kind === 'group' && node.label === label);
		assert.deepEqual(labels(children(group('Compressed chains'))), ['b1', 'b2']);
		assert.deepEqual(labels(children(children(group('Compressed chains'))[0])), ['t1', 't2', 't3', 't4']);
		const alias = children(group('Dedup aliases'))[0];
		assert.equal(alias?.label, 'call_p2_t0_0');
		assert.match(alias?.description ?? '', /^duplicate of /);
		const spilled = children(group('Spilled outputs'))[0];
		assert.equal(spilled?.kind === 'spilled' && spilled.toolCallId, 'call_p1_t2_0');
		assert.equal(group('Pending'), undefined);
		assert.equal(group('Problems'), undefined);
	});

	it('counts each row\'s children before they are built, and knows which row holds a ref', () => {
		const expandable = (nodes: readonly PrunedNode[]): PrunedNode[] => nodes.flatMap((node) => 'children' in node ? [node, ...expandable(children(node))] : []);
		for (const node of expandable(roots)) {
			assert.equal('childCount' in node && node.childCount, children(node).length, node.id);
		}
		const holders = (ref: string): string[] => roots.filter((node) => 'holds' in node && node.holds(ref)).map((node) => node.id);
		const summaryOf = (ref: string): string | undefined => roots.find((node) => children(node).some((child) => child.kind === 'tool' && (child.ref === ref || child.toolCallId === ref)))?.id;
		assert.deepEqual(holders('t3'), [summaryOf('t3')]);
		const t3 = children(roots.find((node) => node.id === summaryOf('t3'))).find((child) => child.kind === 'tool' && child.ref === 't3');
		assert.deepEqual(holders(t3?.kind === 'tool' ? t3.toolCallId : ''), [summaryOf('t3')]);
		assert.deepEqual(holders('b2'), ['chains']);
		assert.deepEqual(holders('call_p2_t0_0'), ['aliases']);
		assert.deepEqual(holders('call_p1_t2_0'), [summaryOf('call_p1_t2_0'), 'spilled'].filter((id) => id !== undefined));
		assert.deepEqual(holders('t999'), []);
	});

	it('gives every row an id that is unique and stable across rebuilds', () => {
		const ids = (nodes: readonly PrunedNode[]): string[] => nodes.flatMap((node) => [node.id, ...ids(children(node))]);
		const first = ids(roots);
		assert.equal(new Set(first).size, first.length);
		assert.deepEqual(ids(runSteps(buildPrunedCallsSteps(basicInsight(), () => 'OTHER'))), first);
	});
});

describe('many summaries', () => {
	/** A session of `count` turns, each one read whose output pi-condense summarized (2.9.1's entries). */
	function summarizedSession(count: number): PreparedInsight {
		const builder = new SessionBuilder();
		for (let turn = 0; turn < count; turn++) {
			builder.user(`step ${turn}`);
			builder.assistant([{ type: 'toolCall', id: `c${turn}`, name: 'read', arguments: { path: `f${turn}` } }]);
			builder.toolResult(`c${turn}`, 'read', 'x'.repeat(2000));
			builder.assistant([{ type: 'text', text: 'ok' }]);
			builder.entry({ type: 'custom_message', customType: 'context-prune-summary', content: `- \`t${turn + 1}\` read f${turn}: 2000 x\n\nmore`, display: false,
				details: { toolCallRefs: [{ shortId: `t${turn + 1}`, toolCallId: `c${turn}` }], toolNames: ['read'], turnIndex: turn * 2, timestamp: 1 } });
			builder.entry({ type: 'custom', customType: 'context-prune-index',
				data: { toolCalls: [{ toolCallId: `c${turn}`, toolName: 'read', args: { path: `f${turn}` }, resultText: 'x'.repeat(2000), isError: false, turnIndex: turn * 2, timestamp: 1 }] } });
		}
		const { config } = resolveConfig({ enabled: true }, LATEST);
		return runSteps(new SessionInsight(runSteps(parseSessionSteps(builder.text())), config, LATEST).prepare());
	}

	it('are grouped by turn ranges of ten past a dozen, each group saying how many and what they took off', () => {
		const few = runSteps(buildPrunedCallsSteps(summarizedSession(12), String)).filter((node) => node.kind === 'summary');
		assert.equal(few.length, 12, 'a dozen stay flat');
		const roots = runSteps(buildPrunedCallsSteps(summarizedSession(123), String));
		const groups = roots.filter((node) => node.kind === 'range');
		assert.equal(groups.length, 13);
		assert.equal(groups[0]?.label, 'Turns 0–18');
		assert.match(groups[0]?.description ?? '', /^10 summaries · 20\.0k → \d+$/);
		assert.equal(groups[12]?.label, 'Turns 240–244');
		assert.match(groups[12]?.description ?? '', /^3 summaries · 6\.0k → \d+$/);
		assert.deepEqual(labels(children(groups[1])).slice(0, 2).map((label) => label.replace(/→ \d+$/, '→ N')), ['t11 · 2.0k → N', 't12 · 2.0k → N']);
		assert.equal(children(groups[1])[0]?.description, '`t11` read f10: 2000 x');
		assert.deepEqual(roots.filter((node) => 'holds' in node && node.holds('t57')).map((node) => node.id), ['summaries@50']);
	});
});

describe('pending batches, problems and the status line', () => {
	it('shows not-yet-summarized calls as pending, and the status says so', () => {
		const builder = new SessionBuilder();
		builder.user('go');
		builder.assistant([{ type: 'toolCall', id: 'c1', name: 'bash', arguments: { command: 'ls' } }]);
		builder.toolResult('c1', 'bash', 'a\nb');
		builder.rawLine('{not json');
		const { config } = resolveConfig({ enabled: true }, LATEST);
		const insight = runSteps(new SessionInsight(runSteps(parseSessionSteps(builder.text())), config, LATEST).prepare());
		const roots = runSteps(buildPrunedCallsSteps(insight, String));
		assert.deepEqual(labels(roots), ['Problems', 'Pending']);
		const problem = children(roots[0])[0];
		assert.equal(problem?.kind === 'problem' && problem.line, 5);
		assert.deepEqual(labels(children(children(roots[1])[0])), ['bash(command="ls") · 3 chars']);
		assert.equal(statusLineText(config, insight, false), pendingStatusText(1));
		assert.equal(statusLineText(config, insight, true), 'prune: summarizing…');
		assert.equal(statusLineText({ ...config, enabled: false }, insight, true), 'prune: OFF');
		assert.equal(statusLineText(config, undefined, false), 'prune: ON');
	});

	it('uses the engine\'s reclaim text when nothing is pending', () => {
		const insight = basicInsight();
		assert.equal(statusLineText(insight.config, insight, false), 'prune: ON \u00b7 5.1k->1.1k (-78%)');
		assert.deepEqual(insight.reclaim, insight.preview.reclaim);
	});
});

describe('defects of the release in the Pruned Calls problems', () => {
	it('show 2.0.0\'s dropped live turn in recovery-2.0.0 as a warning naming the release that fixes it', () => {
		const dir = join(piCondenseSessionsDir, 'recovery-2.0.0');
		const model = runSteps(parseSessionSteps(readFileSync(join(dir, 'session.jsonl'), 'utf8')));
		const insight = (rules: typeof R200): PreparedInsight => {
			const { config } = resolveConfig(JSON.parse(readFileSync(join(dir, 'contextPrune.json'), 'utf8')), rules);
			return runSteps(new SessionInsight(model, config, rules).prepare());
		};
		const problems = children(runSteps(buildPrunedCallsSteps(insight(R200), String)).find((node) => node.kind === 'group' && node.group === 'problems'));
		assert.deepEqual(problems.map((node) => node.kind === 'problem' && [node.severity, node.description]), [['warning', 'pi-condense 2.0.0 defect (fixed in 2.6.0)']]);
		assert.match(problems[0]?.label ?? '', /drops 2 live message\(s\) outside every compressed chain/);
		assert.equal(runSteps(buildPrunedCallsSteps(insight(LATEST), String)).some((node) => node.kind === 'group' && node.group === 'problems'), false);
	});
});

describe('buildPrunedCalls on a Pi 1.6.0 session with context edits', () => {
	const folder = join(piCondenseSessionsDir, 'context-edits-pi-1.6.0');
	const model = runSteps(parseSessionSteps(readFileSync(join(folder, 'session.jsonl'), 'utf8')));
	const rules = LATEST;
	const { config } = resolveConfig(JSON.parse(readFileSync(join(folder, 'contextPrune.json'), 'utf8')), rules);
	const roots = runSteps(buildPrunedCallsSteps(runSteps(new SessionInsight(model, config, rules).prepare()), String));

	it('lists each entry Pi leaves out or sends edited, with both sides', () => {
		const group = roots.find((node) => node.kind === 'group' && node.group === 'edits');
		assert.equal(group?.label, 'Edited by Pi');
		assert.equal(group?.description, '1 left out · 2 replaced');
		const rows = children(group);
		assert.deepEqual(labels(rows), ['left out: tool result bash (call_p5_t0_2)', 'edited: user', 'edited: assistant']);
		const [omitted, prompt, reply] = rows;
		assert.ok(omitted?.kind === 'contextEdit' && prompt?.kind === 'contextEdit' && reply?.kind === 'contextEdit');
		assert.equal(omitted.sentText, undefined);
		assert.equal(omitted.line, 74);
		assert.equal(omitted.description, 'context_edit 713e6800');
		assert.match(prompt.entryText, /^Add monthly totals to the report, in a new src\/summary/);
		assert.equal(prompt.sentText, 'Add monthly totals to the report.');
		assert.match(reply.entryText, /Data check: still 0 problems/);
		assert.equal(reply.sentText, 'Data check passed.');
		assert.equal(reply.description, 'context_edit 7ba37869', 'the later of the two edits of the reply');
	});

	it('has no problems: a Pi 1.6.0 file reads cleanly', () => {
		assert.equal(roots.find((node) => node.kind === 'group' && node.group === 'problems'), undefined);
		assert.deepEqual(model.diagnostics, []);
	});
});
