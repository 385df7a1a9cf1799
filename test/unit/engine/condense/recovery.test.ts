import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { blobFileNames, sanitizeBlobId } from '../../../../src/engine/condense/recovery/blobFileName';
import { recoverOutputs, SPILL_UNAVAILABLE } from '../../../../src/engine/condense/recovery/recoveryQuery';
import { truncateHead } from '../../../../src/engine/condense/recovery/truncateHead';
import { utf8ByteLength } from '../../../../src/engine/condense/recovery/utf8';
import { buildCondenseStateSteps } from '../../../../src/engine/condense/state/buildCondenseState';
import type { BlobReader } from '../../../../src/engine/ports';
import type { ToolResultMessage } from '../../../../src/engine/session/types';
import { assistant, call, record, result, BranchBuilder, user } from './builders';
import { loadSession, REFERENCE_DIR } from './piReference';
import { LATEST, R200 } from '../../../support/releases';
import { runSteps } from '../../../../src/engine/steps';

const BASIC = join(REFERENCE_DIR, 'basic');
const basicBlobs: BlobReader = {
	readBlob: async (name) => readFile(join(BASIC, '01a22b2a-f0d9-7c01-8264-6403bf89dbdf-blobs', name), 'utf8').catch(() => undefined),
};
const noBlobs: BlobReader = { readBlob: () => Promise.resolve(undefined) };

function basicState() {
	const loaded = loadSession(join(BASIC, 'session.jsonl'));
	return { loaded, state: runSteps(buildCondenseStateSteps(loaded.branch, R200)) };
}

describe('recovery (context_tree_query)', () => {
	it('reproduces the recovery output pi-condense returned in the basic session (line 38)', async () => {
		const { loaded, state } = basicState();
		const recorded = loaded.messages.find((m): m is ToolResultMessage => m.role === 'toolResult' && m.toolName === 'context_tree_query');
		const expected = (recorded?.content[0] as { text: string }).text;
		const recovered = await recoverOutputs(state, ['t1'], basicBlobs);
		assert.equal(recovered.text, expected);
		assert.deepEqual(Object.keys(recovered.results), ['t1']);
	});

	it('accepts raw ids and dedup alias ids, and joins blocks with a rule', async () => {
		const { state } = basicState();
		const recovered = await recoverOutputs(state, ['call_p0_t1_1', 'call_p2_t0_0', 'nope']);
		const blocks = recovered.text.split('\n\n---\n\n');
		assert.equal(blocks.length, 3);
		assert.match(blocks[0] ?? '', /^## toolRef: call_p0_t1_1\nTool: read\nArgs: \{\n {2}"path": "src\/util\.js"\n\}\nStatus: OK\nTurn: 1\n\n\/\/ String helpers\./);
		assert.match(blocks[1] ?? '', /^## toolRef: call_p2_t0_0\nTool: read\n/);
		assert.equal(blocks[2], '## toolRef: nope\n(not found in index — may not have been summarized yet)');
		assert.equal(recovered.results.call_p2_t0_0?.toolCallId, 'call_p0_t1_1');
	});

	it('reads a spilled body from its blob, and falls back to the preview when the blob is gone', async () => {
		const { state } = basicState();
		const full = await readFile(join(BASIC, '01a22b2a-f0d9-7c01-8264-6403bf89dbdf-blobs', 'call_p1_t2_0.txt'), 'utf8');
		const withBlob = await recoverOutputs(state, ['call_p1_t2_0'], basicBlobs);
		assert.ok(withBlob.text.endsWith(`Turn: 2\n\n${full}`));
		const withoutBlob = await recoverOutputs(state, ['call_p1_t2_0'], noBlobs);
		assert.ok(withoutBlob.text.endsWith(`\n\n${state.spilled[0]?.record.resultPreview}`));
		const noPreview = runSteps(buildCondenseStateSteps(new BranchBuilder().messages(user(1), assistant(2, call('s', 'bash')), result('s', 'bash', 3, 'x'))
			.index(record('s', 'bash', '', { spillPath: '/x/s.txt' })).branch, LATEST));
		assert.ok((await recoverOutputs(noPreview, ['s'])).text.endsWith(`\n\n${SPILL_UNAVAILABLE}`));
	});

	it('from 2.6.0 returns every occurrence of a reused id, labelled id@timestamp, and one for its tN', async () => {
		const s = new BranchBuilder()
			.messages(user(1), assistant(2, call('bash_23', 'bash')), result('bash_23', 'bash', 3, 'FIRST'))
			.summary('a', [['t1', 'bash_23', 3]]).index(record('bash_23', 'bash', 'FIRST', { turnIndex: 0, resultTimestamp: 3 }))
			.messages(user(10), assistant(11, call('bash_23', 'bash')), result('bash_23', 'bash', 12, 'SECOND'))
			.summary('b', [['t2', 'bash_23', 12]]).index(record('bash_23', 'bash', 'SECOND', { turnIndex: 1, resultTimestamp: 12 }));
		const state = runSteps(buildCondenseStateSteps(s.branch, LATEST));
		const both = await recoverOutputs(state, ['bash_23']);
		assert.deepEqual(Object.keys(both.results), ['bash_23@3', 'bash_23@12']);
		assert.match(both.text, /^## toolRef: bash_23@3\n[\s\S]*\n\nFIRST\n\n---\n\n## toolRef: bash_23@12\n[\s\S]*\n\nSECOND$/);
		assert.match((await recoverOutputs(state, ['t2'])).text, /^## toolRef: t2\n[\s\S]*SECOND$/);
		assert.match((await recoverOutputs(state, ['bash_23@3'])).text, /^## toolRef: bash_23@3\n[\s\S]*FIRST$/);
		// Up to 2.5.0 the later record replaced the earlier one: the raw id and both refs answer SECOND.
		const old = runSteps(buildCondenseStateSteps(s.branch, R200));
		for (const id of ['bash_23', 't1', 't2']) {
			const text = (await recoverOutputs(old, [id])).text;
			assert.match(text, new RegExp(`^## toolRef: ${id}\\n[\\s\\S]*SECOND$`), id);
		}
	});

	it('lists a legacy record, an occurrence and an alias of it, each labelled, the legacy one with its note (2.6.0+)', async () => {
		const s = new BranchBuilder()
			.messages(user(1), assistant(50, call('bash_1', 'bash')), result('bash_1', 'bash', 100, 'OLD'))
			.index(record('bash_1', 'bash', 'OLD', { timestamp: 100 }))
			.messages(assistant(300, call('bash_1', 'bash')), result('bash_1', 'bash', 350, 'NEW'))
			.index(record('bash_1', 'bash', 'NEW', { timestamp: 340, resultTimestamp: 350 }))
			.messages(assistant(900, call('bash_1', 'bash')), result('bash_1', 'bash', 999, 'NEW'))
			.alias('bash_1', 'bash_1', 999, 350);
		const text = (await recoverOutputs(runSteps(buildCondenseStateSteps(s.branch, LATEST)), ['bash_1'])).text;
		const blocks = text.split('\n\n---\n\n');
		assert.deepEqual(blocks.map((b) => b.split('\n').slice(0, 2).join(' | ')), [
			'## toolRef: bash_1 | Occurrence: legacy (no resultTimestamp)',
			'## toolRef: bash_1@350 | Tool: bash',
			'## toolRef: bash_1@999 | Tool: bash',
		]);
		assert.ok(blocks[1]?.endsWith('\n\nNEW') && blocks[2]?.endsWith('\n\nNEW'));
	});

	it('head-truncates long bodies with Pi\'s note', async () => {
		const long = Array.from({ length: 2500 }, (_, i) => `line ${i}`).join('\n');
		const s = new BranchBuilder().messages(user(1), assistant(2, call('c', 'bash')), result('c', 'bash', 3, long)).index(record('c', 'bash', long));
		const text = (await recoverOutputs(runSteps(buildCondenseStateSteps(s.branch, LATEST)), ['c'])).text;
		assert.ok(text.endsWith('line 1999\n[Output truncated: 2000/2500 lines shown]'));
	});
});

describe('truncateHead matches Pi\'s', () => {
	const samples = [
		'', 'short', 'a\nb\nc',
		Array.from({ length: 2001 }, () => 'x').join('\n'),
		Array.from({ length: 300 }, () => 'é'.repeat(100)).join('\n'),
		'🙂'.repeat(13_000) + '\nnext',
		'x'.repeat(60_000),
		`${'y'.repeat(51_199)}\nz`,
		'\ud800 lone surrogate\n'.repeat(4000),
	];
	it('on line limits, byte limits, multibyte text and an oversized first line', async () => {
		const pi = await import('@mariozechner/pi-coding-agent');
		for (const sample of samples) {
			const theirs = pi.truncateHead(sample, { maxLines: pi.DEFAULT_MAX_LINES, maxBytes: pi.DEFAULT_MAX_BYTES });
			const ours = truncateHead(sample);
			assert.deepEqual(ours, { content: theirs.content, truncated: theirs.truncated, totalLines: theirs.totalLines, outputLines: theirs.outputLines });
		}
	});

	it('counts UTF-8 bytes as Node does', () => {
		for (const sample of samples) {
			assert.equal(utf8ByteLength(sample), Buffer.byteLength(sample, 'utf-8'));
		}
	});
});

describe('blob file names', () => {
	it('sanitizes ids as pi-condense does and only trusts a safe stored name', () => {
		assert.equal(sanitizeBlobId('toolu_01:a/b.c@123'), 'toolu_01_a_b_c_123');
		assert.deepEqual(blobFileNames(record('call_p1_t2_0', 'bash', '', { spillPath: '/tmp/x/call_p1_t2_0.txt' })), ['call_p1_t2_0.txt']);
		assert.deepEqual(blobFileNames(record('bash:1', 'bash', '', { spillPath: 'C:\\s\\bash_1_99.txt' })), ['bash_1_99.txt', 'bash_1.txt']);
		assert.deepEqual(blobFileNames(record('a', 'bash', '', { spillPath: '/etc/../passwd' })), ['a.txt']);
	});
});

