/**
 * The preview of sessions written by real Pi 1.6.0 with real pi-condense 2.9.1: the system prompt as the
 * model gets it (counted in the bars), the context edits shown on both sides (what the entry says, what is
 * sent), and pi-condense's own status line measured without the system messages, as it measures.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { contextBreakdownSteps, previewContextSteps } from '../../../../src/engine/condense';
import { snapshotBaseSteps, type PreviewRow } from '../../../../src/engine/preview';
import { buildSessionContextSteps, parseSessionSteps } from '../../../../src/engine/session';
import { conversationOf } from '../../../../src/engine/session/systemMessages';
import type { AgentMessage } from '../../../../src/engine/session/types';
import { readJson, REFERENCE_DIR, referenceConfig } from '../condense/piReference';

import { previewWithRows } from './allRows';
import { runSteps } from '../../../../src/engine/steps';
import { releaseRules } from '../../../../src/engine/release/releases';

const R291 = releaseRules('2.9.1');
const labels = (row: PreviewRow | undefined): string[] => row?.badges.map((b) => b.label) ?? [];

function preview(folder: string, text = readFileSync(join(REFERENCE_DIR, folder, 'session.jsonl'), 'utf8'), enabled = true) {
	const model = runSteps(parseSessionSteps(text));
	const context = runSteps(buildSessionContextSteps(model));
	const config = { ...referenceConfig(folder, R291), enabled };
	const base = runSteps(snapshotBaseSteps({ sessionPath: '/s.jsonl', title: folder, branch: [...model.entries], messages: context.messages, context, config, rules: R291 }));
	return { model, context, config, base, ...previewWithRows(base, { overrides: {}, pricing: undefined, now: 1 }) };
}

describe('preview of Pi 1.6.0 sessions', () => {
	it('leads the sent view with the system prompt replayed into one message, counted in the bars', () => {
		const { snapshot, views } = preview('batching-pi-1.6.0');
		assert.deepEqual(conversationOf(views.after), readJson<AgentMessage[]>(join(REFERENCE_DIR, 'batching-pi-1.6.0', 'expected-context.json')));
		assert.equal(snapshot.after[0]?.kind, 'system');
		assert.deepEqual(labels(snapshot.after[0]), ['replayed']);
		assert.equal(snapshot.after[0]?.counterpart, 0);
		assert.equal(snapshot.before[0]?.kind, 'system');
		assert.equal(snapshot.before[0]?.entryId, '0937a5e1');
		assert.match(snapshot.after[0]?.title ?? '', /^\d+ sections · \+\d+ tools$/);
		const bar = snapshot.bars.find((b) => b.category === 'system');
		assert.ok(bar && bar.beforeTokens > 1000 && bar.afterTokens > 1000, JSON.stringify(bar));
		assert.equal(snapshot.bars[0]?.category, 'system');
	});

	it('says pi-condense\'s status line as it measures it: over the conversation, without the system prompt', () => {
		const { snapshot, context, config, model } = preview('batching-pi-1.6.0');
		const engine = runSteps(previewContextSteps([...model.entries], context.messages, config, R291));
		assert.equal(snapshot.statusText, engine.statusText);
		const before = runSteps(contextBreakdownSteps(conversationOf(context.messages))).total;
		assert.equal(engine.reclaim?.beforeChars, before);
		assert.ok(snapshot.totals.beforeTokens > Math.round(before / 4), 'the totals count the system prompt the model is sent');
	});

	it('shows each context edit: the omitted tool result, the replaced prompt and reply, with what their entries say', () => {
		const { snapshot } = preview('context-edits-pi-1.6.0');
		assert.deepEqual(snapshot.contextEdits.map((note) => [note.kind, note.entryId, note.editId, note.role]), [
			['omitted', '3e9989cd', '713e6800', 'toolResult'],
			['replaced', '1238c8d2', '673001ef', 'user'],
			['replaced', 'b00afabe', '7ba37869', 'assistant'],
		]);
		assert.match(snapshot.contextEdits[0]?.entryText ?? '', /\S/);
		const prompt = snapshot.before.find((row) => row.entryId === '1238c8d2');
		assert.deepEqual(labels(prompt), ['edited']);
		assert.equal(prompt?.edited?.editId, '673001ef');
		assert.match(prompt?.edited?.entryText ?? '', /^Add monthly totals to the report, in a new src\/summary/);
		assert.match(prompt?.blocks[0]?.kind === 'text' ? prompt.blocks[0].text.text : '', /^Add monthly totals to the report\.$/);
		const reply = snapshot.after.at(-1);
		assert.equal(reply?.entryId, 'b00afabe');
		assert.ok(labels(reply).includes('edited'));
		assert.match(reply?.edited?.entryText ?? '', /Data check: still 0 problems/);
		assert.equal(snapshot.before.some((row) => row.entryId === '3e9989cd'), false, 'Pi leaves the omitted result out of its own context too');
	});

	it('marks a later system message folded into the leading one when pi-condense changed the conversation', () => {
		const source = readFileSync(join(REFERENCE_DIR, 'batching-pi-1.6.0', 'session.jsonl'), 'utf8');
		const later = JSON.stringify({ type: 'message', id: 'feed0001', parentId: 'b00afabe', timestamp: '2026-12-02T16:43:00.000Z', message: { role: 'system', content: '', sections: { skills: '<skills/>' }, timestamp: 1796229780000 } });
		const { snapshot, views } = preview('batching-pi-1.6.0', `${source}${later}\n`);
		const raw = snapshot.before.find((row) => row.entryId === 'feed0001');
		assert.deepEqual(labels(raw), ['folded in']);
		assert.equal(raw?.counterpart, undefined);
		assert.equal(views.after.filter((message) => message.role === 'system').length, 1);
		const head = views.after[0];
		assert.ok(head?.role === 'system');
		assert.equal(head.sections?.['skills'], '<skills/>', 'the later section is in the leading message');
	});

	it('keeps the system messages where they are when pruning is off', () => {
		const { snapshot, views, context } = preview('noprune-batching-pi-1.6.0', undefined, false);
		assert.equal(views.after, context.messages);
		assert.deepEqual(labels(snapshot.after[0]), []);
		assert.equal(snapshot.after[0]?.counterpart, 0);
		assert.equal(snapshot.statusText, 'prune: OFF');
	});
});

describe('Pi\'s session totals in the preview', () => {
	it('count every reply, tool and summary usage of the file and its usage entries (cache warming), as Pi\'s /session does', () => {
		const text = readFileSync(join(REFERENCE_DIR, 'context-edits-pi-1.6.0', 'session.jsonl'), 'utf8');
		const model = runSteps(parseSessionSteps(text));
		const context = runSteps(buildSessionContextSteps(model));
		const base = runSteps(snapshotBaseSteps({
			sessionPath: '/s.jsonl', title: 't', branch: [...model.entries], messages: context.messages, context, sessionEntries: model.entries,
			config: referenceConfig('context-edits-pi-1.6.0', R291), rules: R291,
		}));
		const { snapshot } = previewWithRows(base, { overrides: {}, pricing: undefined, now: 1 });
		// Summed straight from the lines, the way Pi's getSessionStats reads entries.
		let tokens = 0;
		let cost = 0;
		for (const line of text.trimEnd().split('\n')) {
			const entry = JSON.parse(line) as { type: string; usage?: Record<string, number> & { cost: { total: number } }; message?: { role: string; usage?: Record<string, number> & { cost: { total: number } } } };
			const usage = entry.type === 'usage' || entry.type === 'compaction' || entry.type === 'branch_summary' ? entry.usage
				: entry.type === 'message' && (entry.message?.role === 'assistant' || entry.message?.role === 'toolResult') ? entry.message.usage : undefined;
			if (usage) {
				tokens += (usage['input'] ?? 0) + (usage['output'] ?? 0) + (usage['cacheRead'] ?? 0) + (usage['cacheWrite'] ?? 0);
				cost += usage.cost.total;
			}
		}
		assert.deepEqual(snapshot.sessionUsage, { tokens, cost, usageEntries: 1 });
		assert.ok(tokens > 4000, 'the cache warming entry\'s 4,000 cache-read tokens are in');
		const withoutEntries = previewWithRows(runSteps(snapshotBaseSteps({ ...base, sessionEntries: undefined, messages: context.messages, context, config: base.config, rules: R291, branch: base.branch, sessionPath: '', title: '' })), { overrides: {}, pricing: undefined, now: 1 });
		assert.equal(withoutEntries.snapshot.sessionUsage, undefined);
	});
});
