/**
 * A reader that continues an existing model (`SessionPieceReader.after`), as the writer uses it
 * after appending: pieces of text and lines already parsed must give exactly the model a cold read
 * of the same bytes gives, and leave the continued model as it was.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSessionContextSteps, parseSessionSteps, SessionPieceReader, type ParsedLine, type SessionModel } from '../../../../src/engine/session';
import { MAX_JSON_DEPTH } from '../../../../src/engine/session/jsonDepth';
import { realSessionsDir } from '../../../support/paths';
import { Random } from '../../../support/random';
import { observable, SessionTextMutator } from '../../../support/sessionModelCheck';
import { runSteps } from '../../../../src/engine/steps';

const lines = readFileSync(join(realSessionsDir, 'large-session.migrated-v3.jsonl'), 'utf8').split(/(?<=\n)/);

/** Continues `base` with `rest`, a random mix of text pieces and parsed lines (text only where a line is cut). */
function continueWith(base: SessionModel, rest: readonly string[], random: Random): SessionModel | undefined {
	const reader = runSteps(SessionPieceReader.afterSteps(base));
	assert.ok(reader);
	let pending = base.pendingTail;
	for (let at = 0; at < rest.length;) {
		const count = random.int(1, 30);
		const group = rest.slice(at, at + count);
		at += count;
		if (pending === '' && random.chance(0.5)) {
			const parsed = group.map((text): ParsedLine | undefined => {
				try {
					return { text, value: JSON.parse(text) as unknown };
				} catch {
					return undefined;
				}
			});
			if (parsed.every((line) => line !== undefined)) {
				assert.equal(reader.pushParsed(parsed), true);
				continue;
			}
		}
		const text = pending + group.join('');
		assert.equal(reader.push(text), true);
		pending = text.slice(text.lastIndexOf('\n') + 1);
	}
	return reader.model();
}

describe('session model: a reader that continues a model (SessionPieceReader.after)', function () {
	this.timeout(120000);

	for (const seed of [1, 2, 3, 42]) {
		it(`gives the cold read's model for text pieces and parsed lines after a model (seed ${seed})`, () => {
			const random = new Random(seed);
			const text = new SessionTextMutator(random).withRandomBranchesAndLabels(lines.slice(0, 400).join(''));
			const all = text.split(/(?<=\n)/);
			const cut = random.int(2, 200);
			const base = runSteps(parseSessionSteps(all.slice(0, cut).join('')));
			const before = observable(base);
			// Half the time the base's context is built first, so the result's is continued from it.
			if (random.chance(0.5)) {
				runSteps(buildSessionContextSteps(base));
			}
			const model = continueWith(base, all.slice(cut), random);
			assert.ok(model);
			assert.deepStrictEqual(observable(model), observable(runSteps(parseSessionSteps(text))), `seed ${seed}`);
			assert.deepStrictEqual(observable(base), before, 'the continued model is unchanged');
		});
	}

	it('continues a model whose last line is unfinished with text, and refuses parsed lines until it is complete', () => {
		const whole = lines.slice(0, 60).join('');
		const cut = whole.length - 25;
		const base = runSteps(parseSessionSteps(whole.slice(0, cut)));
		const reader = runSteps(SessionPieceReader.afterSteps(base));
		assert.ok(reader);
		assert.equal(reader.pushParsed([{ text: lines[60] ?? '', value: JSON.parse(lines[60] ?? '') }]), false);
		assert.equal(reader.push(base.pendingTail + whole.slice(cut)), true);
		assert.deepStrictEqual(observable(reader.model()), observable(runSteps(parseSessionSteps(whole))));
	});

	it('returns the continued model itself when nothing was added, and nothing for files it cannot continue', () => {
		const base = runSteps(parseSessionSteps(lines.slice(0, 30).join('')));
		assert.equal(runSteps(SessionPieceReader.afterSteps(base))?.model(), base);
		assert.equal(runSteps(SessionPieceReader.afterSteps(runSteps(parseSessionSteps('')))), undefined);
		const v1 = readFileSync(join(realSessionsDir, 'large-session.jsonl'), 'utf8');
		assert.equal(runSteps(SessionPieceReader.afterSteps(runSteps(parseSessionSteps(v1.slice(0, v1.indexOf('\n', 5000) + 1))))), undefined);
	});

	it('reports a line nested too deeply among parsed lines as a cold read does', () => {
		const base = runSteps(parseSessionSteps(lines.slice(0, 10).join('')));
		const parent = base.leafId;
		let deep: unknown = 'bottom';
		for (let level = 0; level < MAX_JSON_DEPTH + 5; level++) {
			deep = [deep];
		}
		const entry = { type: 'custom', customType: 'x', data: deep, id: 'deep0001', parentId: parent, timestamp: '2026-01-01T00:00:00.000Z' };
		const text = `${JSON.stringify(entry)}\n`;
		const reader = runSteps(SessionPieceReader.afterSteps(base));
		assert.ok(reader);
		assert.equal(reader.pushParsed([{ text, value: JSON.parse(text) }]), true);
		const model = reader.model();
		assert.deepStrictEqual(observable(model), observable(runSteps(parseSessionSteps(lines.slice(0, 10).join('') + text))));
		assert.equal(model.diagnostics.at(-1)?.severity, 'error');
	});
});
