/**
 * The two sidebar views on the harness's real sessions: "Pi Sessions" lists them by project (the
 * workspace's first) with labels, counts and reclaim from the engine; the newest workspace session is
 * selected and "Pruned Calls" shows its summaries, refs, chains, aliases and spilled outputs exactly as
 * the engine derives them.
 */
import assert from 'node:assert/strict';
import { basename } from 'node:path';
import * as vscode from 'vscode';
import { charsToTokens, measureReclaimSteps, previewFromStateSteps, buildCondenseStateSteps } from '../../src/engine/condense';
import { buildSessionContextSteps, getBranchSteps, parseSessionSteps } from '../../src/engine/session';
import { readFileSync } from 'node:fs';
import type { PrunedTreeNode } from '../../src/host/tree/prunedCallsNodes';
import { engineView } from './engineExpectations';
import { activeApi, fixtures, waitUntil } from './helpers';
import { runSteps } from '../../src/engine/steps';

function labels(nodes: readonly PrunedTreeNode[]): string[] {
	return nodes.map((node) => node.data.label);
}

describe('Pi Sessions and Pruned Calls views', () => {
	it('lists every fixture session under its project, the workspace\'s project first', async () => {
		const api = await activeApi();
		const { basic, largeBulk, realV3, workspace } = fixtures();
		await waitUntil(() => api.controller.discovery.done && api.sessionsTree.shownProjects().length === 3, 'three projects listed');
		const projects = api.sessionsTree.shownProjects();
		assert.equal(projects[0]?.cwd, workspace);
		assert.equal(projects[0]?.isWorkspace, true);
		const paths = projects.flatMap((project) => project.sessions.map((session) => session.path));
		assert.deepEqual(new Set(paths), new Set([basic.path, largeBulk.path, realV3.path]));
		const roots = api.sessionsTree.getChildren();
		assert.deepEqual(roots.map((node) => node.id), projects.map((project) => `project:${project.cwd}`));
		const item = api.sessionsTree.getTreeItem(roots[0]!);
		assert.equal(item.collapsibleState, vscode.TreeItemCollapsibleState.Expanded, 'the workspace project is expanded');
	});

	it('fills in each session\'s first message, message count and reclaim in the background', async () => {
		const api = await activeApi();
		const { basic } = fixtures();
		for (const root of api.sessionsTree.getChildren()) {
			api.sessionsTree.getChildren(root); // what VS Code does when it shows a project: asks for details
		}
		const row = () => api.sessionsTree.shownProjects().flatMap((project) => project.sessions).find((session) => session.path === basic.path);
		await waitUntil(() => row()?.summarized === true && /-\d+%/.test(row()?.description ?? ''), 'the basic session\'s summary and reclaim');
		const model = runSteps(parseSessionSteps(readFileSync(basic.path, 'utf8')));
		const firstUser = runSteps(buildSessionContextSteps(model)).messages.find((message) => message.role === 'user');
		const firstText = typeof firstUser?.content === 'string' ? firstUser.content : firstUser?.content.find((block) => block.type === 'text')?.text ?? '';
		assert.ok(firstText.startsWith(row()!.label.replace(/…$/, '')), `label "${row()!.label}" is the first user message`);
		const messageCount = model.entries.filter((entry) => entry.type === 'message').length;
		assert.match(row()!.description, new RegExp(`· ${messageCount} msgs ·`));
		const messages = runSteps(buildSessionContextSteps(model)).messages;
		const { config, rules } = engineView(basic.path);
		const state = runSteps(buildCondenseStateSteps(runSteps(getBranchSteps(model)), rules));
		const reclaim = runSteps(measureReclaimSteps(messages, runSteps(previewFromStateSteps(state, messages, { ...config, enabled: true }, rules)).after));
		assert.ok(reclaim);
		const percent = Math.round((1 - charsToTokens(reclaim.afterChars) / charsToTokens(reclaim.beforeChars)) * 100);
		assert.ok(row()!.description.endsWith(`-${percent}%`), `${row()!.description} ends with -${percent}%`);
	});

	it('shows the selected session\'s pruned calls as the engine derives them', async () => {
		const api = await activeApi();
		const { basic } = fixtures();
		await vscode.commands.executeCommand('piCondense.selectSession', basic.path);
		await waitUntil(() => api.controller.selected === basic.path && api.prunedTree.rootNodes.length > 0, 'the basic session selected and shown');
		const expected = engineView(basic.path);
		const roots = api.prunedTree.rootNodes;
		const summaries = roots.filter((node) => node.data.kind === 'summary');
		assert.deepEqual(labels(summaries), expected.summaryLabels);
		assert.ok(summaries.every((node) => node.children === undefined), 'rows under a summary are built when it is expanded');
		const children = (node: PrunedTreeNode | undefined): Promise<PrunedTreeNode[]> => node ? api.prunedTree.getChildren(node) : Promise.resolve([]);
		const summaryCalls = await Promise.all(summaries.map(children));
		assert.deepEqual(summaryCalls.map((calls) => calls.map((child) => child.recoveryId)), expected.refsBySummary);
		assert.ok(summaryCalls[1]?.[0]?.data.label.startsWith('t3 read(path="src/app.js")'), summaryCalls[1]?.[0]?.data.label);
		const groups = Object.fromEntries(roots.filter((node) => node.data.kind === 'group').map((node) => [node.data.label, node]));
		const chains = await children(groups['Compressed chains']);
		assert.deepEqual(labels(chains), expected.state.chains.map((chain) => chain.entry.blockId));
		assert.deepEqual((await children(chains[0])).map((child) => child.data.label), expected.state.chains[0]?.entry.toolRefs);
		assert.deepEqual(labels(await children(groups['Dedup aliases'])), [...expected.state.aliases.values()].map((alias) => alias.toolCallId));
		assert.deepEqual((await children(groups['Spilled outputs'])).map((child) => child.data.description), expected.state.spilled.map((item) => item.record.toolCallId));
		assert.equal(groups['Pending'], undefined, 'nothing pending in the basic session');
		assert.equal(api.prunedTree.view.description, api.controller.titleOf(basic.path));
	});

	it('gives every row a stable id and a parent, so reveal works', async () => {
		const api = await activeApi();
		const t3 = await api.prunedTree.findRef('t3');
		assert.ok(t3);
		assert.equal(api.prunedTree.getParent(t3), api.prunedTree.rootNodes.find((node) => node.children?.includes(t3)));
		assert.equal(api.prunedTree.getTreeItem(t3).id, t3.id);
		// The view's selection reaches the extension host after the workbench applied it. On a loaded machine
		// (the CI runs the reliability suite beside this one) a reveal's selection was lost now and then, likely
		// to a redraw of the view landing at the same moment: it is asked again, at most twice more.
		const selectedT3 = (): boolean => api.prunedTree.view.selection.some((node) => node.id === t3.id);
		for (let attempt = 0; attempt === 0 || (attempt < 3 && !selectedT3()); attempt++) {
			assert.equal(await vscode.commands.executeCommand('piCondense.revealRef', 't3'), true);
			await waitUntil(selectedT3, 'the revealed row selected', 5_000).catch(() => undefined);
		}
		assert.deepEqual(api.prunedTree.view.selection.map((node) => node.id), [t3.id]);
	});

	it('shows the other sessions when selected, and a real session without pi-condense entries as all pending', async () => {
		const api = await activeApi();
		const { basic, realV3 } = fixtures();
		await vscode.commands.executeCommand('piCondense.selectSession', realV3.path);
		await waitUntil(() => api.controller.selected === realV3.path && api.prunedTree.rootNodes.length > 0, 'the real v3 session shown');
		const expected = engineView(realV3.path);
		const pending = api.prunedTree.rootNodes.find((node) => node.data.label === 'Pending');
		assert.equal(pending?.data.kind === 'group' && pending.data.childCount, expected.pendingCount);
		assert.equal(pending && (await api.prunedTree.getChildren(pending)).length, expected.pendingCount);
		assert.equal(api.prunedTree.rootNodes.filter((node) => node.data.kind === 'summary').length, 0);
		assert.equal(basename(realV3.path).endsWith('.jsonl'), true);
		await vscode.commands.executeCommand('piCondense.selectSession', basic.path);
		await waitUntil(async () => api.controller.selected === basic.path && await api.prunedTree.findRef('t3') !== undefined, 'back to the basic session');
	});
});
