/**
 * Recovery of a reused raw id (spec §6.1) on a real session: recovery-2.9.1 reuses `bash_0` in
 * several turns. From 2.6.0 `query bash_0` answers every indexed occurrence in time order, each
 * labelled `bash_0@<resultTimestamp>`, and each block is what real 2.9.1 answered for that
 * occurrence's `tN` in the same session, apart from the label. Before 2.6.0 the last record wins.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { piCondenseSessionsDir, repoRoot } from '../../support/paths';

const CLI = join(repoRoot, 'dist', 'cli.js');
const SESSION = join(piCondenseSessionsDir, 'recovery-2.9.1', 'session.jsonl');
const CONFIG = join(piCondenseSessionsDir, 'recovery-2.0.0', 'contextPrune.json');

interface Line {
	readonly type: string;
	readonly customType?: string;
	readonly data?: { readonly toolCalls?: readonly { readonly toolCallId: string; readonly resultTimestamp?: number }[] };
	readonly message?: { readonly role: string; readonly toolName?: string; readonly content?: readonly { readonly text?: string }[] };
}

function query(release: string, id: string): string[] {
	const result = spawnSync(process.execPath, [CLI, 'query', SESSION, id, '--config', CONFIG, '--release', release], { encoding: 'utf8' });
	assert.equal(result.status, 0, result.stderr);
	return result.stdout.replace(/\n$/, '').split('\n\n---\n\n');
}

const withoutLabel = (block: string): string => block.replace(/^## toolRef: \S+\n/, '');

describe('context_tree_query on a reused raw id (real 2.9.1 session)', () => {
	const lines = readFileSync(SESSION, 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line) as Line);

	it('answers every occurrence from 2.6.0, labelled and in time order, as 2.9.1 answered each one', () => {
		const indexed = lines.flatMap((e) => e.customType === 'context-prune-index' ? e.data?.toolCalls ?? [] : [])
			.filter((record) => record.toolCallId === 'bash_0')
			.map((record) => record.resultTimestamp as number)
			.sort((a, b) => a - b);
		assert.ok(indexed.length > 1, 'bash_0 is indexed more than once');
		const blocks = query('2.9.1', 'bash_0');
		assert.deepEqual(blocks.map((block) => block.split('\n')[0]), indexed.map((ts) => `## toolRef: bash_0@${ts}`));
		assert.deepEqual(query('2.6.0', 'bash_0'), blocks);

		// What real 2.9.1 returned for refs naming bash_0's occurrences, in this very session.
		const realAnswers = lines
			.filter((e) => e.message?.role === 'toolResult' && e.message.toolName === 'context_tree_query')
			.map((e) => e.message?.content?.[0]?.text ?? '')
			.filter((text) => blocks.some((block) => withoutLabel(block) === withoutLabel(text)));
		assert.ok(realAnswers.length >= 2, `two real answers name bash_0 occurrences (found ${realAnswers.length})`);
	});

	it('answers one record under the bare id before 2.6.0 (the last one wins)', () => {
		const blocks = query('2.5.0', 'bash_0');
		assert.equal(blocks.length, 1);
		assert.match(blocks[0] ?? '', /^## toolRef: bash_0\nTool: /);
	});
});
