/**
 * The fuzzer's `parentChaos` and `duplicateId` mutants read without a single diagnostic, so a file
 * whose tree Pi would show differently (or loop on forever) was written to like a clean one. Broken
 * parent links and repeated ids are now warnings at their line.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { appendToSession, getBranchSteps, getTree, parseSessionSteps, splitJsonlLines } from '../../../../src/engine/session';
import { checkModelWritable } from '../../../../src/engine/write';
import { realSessionFiles } from '../../../support/paths';
import { SessionBuilder } from '../../../support/sessionBuilder';
import { runSteps } from '../../../../src/engine/steps';

function session(edit: (builder: SessionBuilder) => void): string {
	const builder = new SessionBuilder();
	builder.user('one');
	edit(builder);
	builder.user('last');
	return builder.text();
}

describe('parentId links and repeated ids', () => {
	it('warns about a parent that is missing, at the entry\'s line', () => {
		const model = runSteps(parseSessionSteps(session((b) => b.entry({ type: 'custom', customType: 'x', parentId: 'deadbeef' }))));
		assert.deepEqual(model.diagnostics.map((d) => d.line), [3]);
		assert.match(model.diagnostics[0]?.message ?? '', /parentId "deadbeef" does not name an entry above this line; Pi shows this entry as the root of a separate tree/);
		assert.equal(checkModelWritable(model)?.code, 'diagnostics');
	});

	it('warns about an entry that is its own parent', () => {
		const model = runSteps(parseSessionSteps(session((b) => b.entry({ type: 'custom', customType: 'x', id: 'cafecafe', parentId: 'cafecafe' }))));
		assert.match(model.diagnostics[0]?.message ?? '', /"cafecafe" is the entry's own id/);
	});

	it('warns about a loop through a parent further down, and still reads the branch and tree', () => {
		const text = session((b) => {
			b.entry({ type: 'custom', customType: 'x', id: 'aaaaaaaa', parentId: 'bbbbbbbb' });
			b.entry({ type: 'custom', customType: 'x', id: 'bbbbbbbb', parentId: 'aaaaaaaa' });
			b.branchFrom('bbbbbbbb');
		});
		const model = runSteps(parseSessionSteps(text));
		assert.deepEqual(model.diagnostics.map((d) => d.line), [3]);
		assert.match(model.diagnostics[0]?.message ?? '', /form a loop that hangs Pi/);
		assert.deepEqual(runSteps(getBranchSteps(model)).map((e) => e.id), ['aaaaaaaa', 'bbbbbbbb', '00000002']);
		assert.equal(getTree(model).cycleBreaks.length, 1);
	});

	it('warns about a repeated id, naming the line that used it first', () => {
		const model = runSteps(parseSessionSteps(session((b) => b.entry({ type: 'custom', customType: 'x', id: '00000001' }))));
		assert.deepEqual(model.diagnostics.map((d) => [d.line, d.severity]), [[3, 'warning']]);
		assert.match(model.diagnostics[0]?.message ?? '', /the id "00000001" is already used by the entry on line 2/);
	});

	it('gives a file read in steps exactly the warnings of a cold read', () => {
		const text = session((b) => {
			b.entry({ type: 'custom', customType: 'x', id: 'aaaaaaaa', parentId: 'bbbbbbbb' });
			b.entry({ type: 'custom', customType: 'x', id: 'bbbbbbbb', parentId: 'aaaaaaaa' });
			b.entry({ type: 'custom', customType: 'x', id: '00000001' });
		});
		const cold = runSteps(parseSessionSteps(text)).diagnostics;
		assert.equal(cold.length, 2);
		for (let cut = 0; cut <= text.length; cut++) {
			const stepped = appendToSession(runSteps(parseSessionSteps(text.slice(0, cut))), text.slice(splitJsonlLines(text.slice(0, cut)).consumedLength));
			if (stepped !== undefined) {
				assert.deepEqual(stepped.diagnostics, cold, `cut at ${cut}`);
			}
		}
	});

	it('finds nothing to warn about in the files Pi wrote', () => {
		for (const path of realSessionFiles()) {
			assert.deepEqual(runSteps(parseSessionSteps(readFileSync(path, 'utf8'))).diagnostics, [], path);
		}
	});
});
