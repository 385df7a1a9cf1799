/**
 * The editor's annotations of a session file, on sessions real Pi and pi-condense wrote: the tokens
 * of each entry's message, the ref a summary stub names, the chain that dropped an entry, spilled
 * outputs, the refs a summary entry covers, what a chain entry dropped, and Pi 1.6's context edits.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseSessionSteps, type SessionModel } from '../../../../src/engine/session';
import { releaseRules, type ReleaseVersion } from '../../../../src/engine/release/releases';
import { SessionInsight } from '../../../../src/engine/views/sessionInsight';
import { annotationText, lineAnnotationsSteps, refRanges, type LineAnnotation } from '../../../../src/engine/views/annotationText';
import { runSteps } from '../../../../src/engine/steps';
import { piCondenseSessionsDir } from '../../../support/paths';
import { referenceConfig } from '../condense/piReference';

function sessionModel(folder: string): SessionModel {
	return runSteps(parseSessionSteps(readFileSync(join(piCondenseSessionsDir, folder, 'session.jsonl'), 'utf8')));
}

function annotations(folder: string, release: ReleaseVersion, from = 1, to = Number.MAX_SAFE_INTEGER, enabled = true): Map<number, string> {
	const model = sessionModel(folder);
	const rules = releaseRules(release);
	const insight = new SessionInsight(model, { ...referenceConfig(folder, rules), enabled }, rules);
	const lines: LineAnnotation[] = runSteps(lineAnnotationsSteps(runSteps(insight.annotationsSteps()), from, to));
	return new Map(lines.map(({ line, text }) => [line, text]));
}

/** The file's line as Pi's context holds its message: pi-condense's tokens are its JSON's length / 4. */
function messageTokens(folder: string, line: number): number {
	const entry = JSON.parse(readFileSync(join(piCondenseSessionsDir, folder, 'session.jsonl'), 'utf8').split('\n')[line - 1] as string) as { message: unknown };
	return Math.round(JSON.stringify(entry.message).length / 4);
}

describe('entry annotations', () => {
	describe('a Pi 1.6.0 session pruned by 2.9.1, with context edits', () => {
		const folder = 'context-edits-pi-1.6.0';
		const lines = annotations(folder, '2.9.1');

		it('counts each message entry\'s tokens as pi-condense does', () => {
			assert.equal(lines.get(5), `${messageTokens(folder, 5)} tokens`);
			assert.equal(lines.get(31), `${messageTokens(folder, 31)} tokens`);
		});

		it('names the ref a flush summarized a result as, and the chain that dropped it', () => {
			assert.equal(lines.get(7), `${messageTokens(folder, 7)} tokens · summarized as t1 · dropped by chain b1`);
			assert.equal(lines.get(6), `${messageTokens(folder, 6)} tokens · dropped by chain b1`);
			assert.equal(lines.get(56), `${messageTokens(folder, 56)} tokens · summarized as t10`);
			assert.equal(lines.get(58), `${messageTokens(folder, 58)} tokens · same output as t7`);
		});

		it('says which refs a summary entry replaced, and what each chain entry dropped', () => {
			assert.match(lines.get(13) ?? '', / · summary of t1–t5 · dropped by chain b1$/);
			assert.match(lines.get(62) ?? '', / · summary of t10–t11$/);
			assert.equal(lines.get(41), 'chain b1: 5 calls dropped (t1–t5)');
			assert.equal(lines.get(66), 'chain b3: 2 calls dropped (t5, t9)');
		});

		it('marks entries a context_edit changed or left out, with the edit\'s line (the later edit wins)', () => {
			assert.match(lines.get(19) ?? '', / · edited by Pi \(line 88\)$/);
			assert.match(lines.get(84) ?? '', / · edited by Pi \(line 89\)$/);
			assert.equal(lines.get(74), 'left out by Pi (line 85)');
		});

		it('says nothing on lines whose entries give the model nothing', () => {
			for (const line of [1, 2, 3, 14, 15, 85, 87]) {
				assert.equal(lines.get(line), undefined, `line ${line}`);
			}
		});

		it('computes only the lines asked for', () => {
			const visible = annotations(folder, '2.9.1', 40, 50);
			assert.deepEqual([...visible.keys()], [41, 44, 45, 46, 47, 50]);
			assert.equal(visible.get(47), lines.get(47));
		});

		it('with pruning off, says only what is sent: tokens and Pi\'s edits', () => {
			const off = annotations(folder, '2.9.1', 1, Number.MAX_SAFE_INTEGER, false);
			assert.equal(off.get(7), `${messageTokens(folder, 7)} tokens`);
			assert.match(off.get(19) ?? '', / · edited by Pi \(line 88\)$/);
		});
	});

	it('marks a spilled output (pi-condense 2.0.0 on Pi 0.78)', () => {
		const lines = annotations('basic', '2.0.0');
		assert.match(lines.get(25) ?? '', /^1\.4k tokens · spilled · dropped by chain b2$/);
		assert.match(lines.get(38) ?? '', / · summarized as t8$/);
	});

	it('words each fact, in a fixed order', () => {
		assert.equal(annotationText({}), '');
		assert.equal(annotationText({ tokens: 1 }), '1 token');
		assert.equal(annotationText({ tokens: 15_400, droppedBy: '' }), '15.4k tokens · not sent (orphan)');
		assert.equal(annotationText({ tokens: 40, stub: { kind: 'spilled', ref: 't7' }, droppedBy: 'b2', edited: { line: undefined, removed: false } }), '40 tokens · spilled as t7 · dropped by chain b2 · edited by Pi');
	});

	describe('texts from a hostile file', () => {
		it('joins runs of refs and counts what is not a ref', () => {
			assert.equal(refRanges(['t1', 't2', 't3', 't5', 't9', 't10']), 't1–t3, t5, t9–t10');
			assert.equal(refRanges(['t4', 'javascript:alert(1)', '[x](command:y)']), 't4, 2 others');
			assert.equal(refRanges([]), 'no refs');
		});

		it('shows no block id or ref a session made up, and stays one short line', () => {
			assert.equal(annotationText({ droppedBy: '[b1](command:workbench.action.terminal.new)' }), 'dropped by chain (unnamed)');
			assert.equal(annotationText({ stub: { kind: 'summarized', ref: 'call_1\nrm -rf' } }), 'summarized as a ref');
			const long = annotationText({ chain: { blockId: 'b1', calls: 5000, refs: Array.from({ length: 5000 }, (_, i) => `t${2 * i + 1}`) } });
			assert.ok(long.length <= 160 && long.endsWith('…'), long);
		});
	});
});
