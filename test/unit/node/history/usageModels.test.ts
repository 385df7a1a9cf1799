import assert from 'node:assert/strict';
import { join } from 'node:path';
import { useTempDir } from '../../../support/tempDirs';
import { append, headerLine, line, openTestIndex, sessionsRoot, writeSession, type Extraction } from '../../../support/history/indexKit';

/** An assistant reply with the provider and model fields given as they are (a missing one left out). */
function reply(id: string, at: number, names: { provider?: string; model?: string }): string {
	return line({
		type: 'message', id, parentId: null, timestamp: new Date(at).toISOString(),
		message: { role: 'assistant', content: [{ type: 'text', text: id }], ...names, usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { total: 0.001 } }, stopReason: 'stop', timestamp: at },
	});
}

describe('history index: the model of each request', function () {
	this.timeout(60_000);
	const temp = useTempDir('history-models');

	for (const extraction of ['here', 'threads'] as const satisfies readonly Extraction[]) {
		it(`keeps an empty provider or model apart from a missing one (extraction ${extraction})`, async () => {
			const agentDir = join(temp(), 'agent');
			const asked = [{ provider: '', model: 'm' }, { model: 'm' }, { provider: 'p', model: 'm' }, { provider: 'p', model: '' }, { provider: 'p' }, {}, { provider: '', model: 'm' }];
			const path = writeSession(agentDir, 'p', 'a.jsonl', headerLine('a') + asked.map((names, i) => reply(`r${i}`, Date.UTC(2026, 0, 1, 0, i), names)).join(''));
			const { index, notices } = await openTestIndex(join(temp(), 'i.sqlite'), 'auto', false, extraction);
			assert.ok(index, JSON.stringify(notices));
			try {
				await index.refresh([sessionsRoot(agentDir)]);
				const rows = await index.db.read((db) => db.prepare('SELECT entry_id, provider, model FROM usage_with_model ORDER BY line').all());
				assert.deepEqual(rows.map((row) => [row['entry_id'], row['provider'], row['model']]), asked.map((names, i) => [`r${i}`, names.provider ?? null, names.model ?? null]));
				// Each pair is one row, a missing name too (SQLite's UNIQUE takes two NULLs for different values), however
				// many batches name it: the file grown twice, each time a batch of its own.
				for (const at of [20, 21]) {
					append(path, reply(`r${at}`, Date.UTC(2026, 0, 1, 0, at), {}) + reply(`s${at}`, Date.UTC(2026, 0, 1, 0, at), { provider: 'p' }));
					await index.refresh([sessionsRoot(agentDir)]);
				}
				const models = await index.db.read((db) => db.prepare('SELECT provider, model FROM models ORDER BY model_id').all());
				const named = asked.filter((names) => names.provider !== undefined || names.model !== undefined); // a request naming neither has no model
				assert.equal(models.length, new Set(named.map((names) => JSON.stringify([names.provider ?? null, names.model ?? null]))).size, JSON.stringify(models));
			} finally {
				await index.close();
			}
		});
	}
});
