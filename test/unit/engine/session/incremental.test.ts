/**
 * Appending to a session incrementally must give exactly the model a cold read of the same bytes
 * gives, whatever the chunking (property-style, seeded), and must leave earlier snapshots unchanged.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { appendToSession, parseSessionSteps, SessionPieceReader, type SessionModel } from '../../../../src/engine/session';
import { observable, SessionTextMutator } from '../../../support/sessionModelCheck';
import { piCondenseSessionsDir, realSessionsDir } from '../../../support/paths';
import { Random } from '../../../support/random';
import { runSteps } from '../../../../src/engine/steps';

const realFile = join(realSessionsDir, 'large-session.migrated-v3.jsonl');

/** Applies `chunks` one after another, starting from the cold read of the first. */
function applyChunks(chunks: readonly string[]): { model: SessionModel; consumed: string }[] {
	const steps: { model: SessionModel; consumed: string }[] = [];
	let consumed = chunks[0] ?? '';
	let model = runSteps(parseSessionSteps(consumed));
	steps.push({ model, consumed });
	for (const chunk of chunks.slice(1)) {
		consumed += chunk;
		const unread = model.pendingTail + chunk;
		model = appendToSession(model, unread) ?? runSteps(parseSessionSteps(consumed));
		steps.push({ model, consumed });
	}
	return steps;
}

describe('session model: incremental append', function () {
	this.timeout(120000);
	const content = readFileSync(realFile, 'utf8');
	const lines = content.split(/(?<=\n)/);

	it('matches a cold read after every appended line of a real session', () => {
		// Every line for the first 250, then every 7th, to keep the quadratic check bounded.
		const chunks = [lines.slice(0, 2).join('')];
		let next = 2;
		while (next < lines.length) {
			const step = next < 250 ? 1 : 7;
			chunks.push(lines.slice(next, next + step).join(''));
			next += step;
		}
		for (const { model, consumed } of applyChunks(chunks)) {
			assert.deepStrictEqual(observable(model), observable(runSteps(parseSessionSteps(consumed))));
		}
	});

	for (const seed of [1, 2, 3, 42, 1337]) {
		it(`matches a cold read for random byte-level chunking (seed ${seed})`, () => {
			const random = new Random(seed);
			const s = new SessionTextMutator(random).withRandomBranchesAndLabels(lines.slice(0, 300).join(''));
			const chunks: string[] = [];
			for (let at = 0; at < s.length;) {
				const size = random.chance(0.2) ? random.int(1, 40) : random.int(40, 20000);
				chunks.push(s.slice(at, at + size));
				at += size;
			}
			const steps = applyChunks(chunks);
			for (const { model, consumed } of steps.filter((_, i) => i % 5 === 0 || i === steps.length - 1)) {
				assert.deepStrictEqual(observable(model), observable(runSteps(parseSessionSteps(consumed))), `seed ${seed}`);
			}
		});
	}

	it('leaves the previous snapshot unchanged and returns the same model for an empty append', () => {
		const base = runSteps(parseSessionSteps(lines.slice(0, 50).join('')));
		const before = observable(base);
		const entriesBefore = base.entries;
		const next = appendToSession(base, lines.slice(50, 80).join(''));
		assert.ok(next);
		assert.equal(base.entries, entriesBefore);
		assert.equal(base.entries.length, 49 - 0);
		assert.deepStrictEqual(observable(base), before);
		const newId = next.entries.at(-1)?.id ?? '';
		assert.equal(base.entryById(newId), undefined, 'the older snapshot cannot see later entries');
		assert.equal(appendToSession(next, ''), next);
		// Appending again from the older snapshot (a second reader) still gives correct models.
		const other = appendToSession(base, lines.slice(50, 60).join(''));
		assert.ok(other);
		assert.deepStrictEqual(observable(other), observable(runSteps(parseSessionSteps(lines.slice(0, 60).join('')))));
		assert.deepStrictEqual(observable(next), observable(runSteps(parseSessionSteps(lines.slice(0, 80).join('')))));
	});

	it('asks for a full read when the file has no header yet or is a v1 file', () => {
		assert.equal(appendToSession(runSteps(parseSessionSteps('')), lines[0] ?? ''), undefined);
		const v1 = readFileSync(join(realSessionsDir, 'large-session.jsonl'), 'utf8');
		assert.equal(appendToSession(runSteps(parseSessionSteps(v1.slice(0, 5000))), v1.slice(5000, 9000)), undefined);
	});
});

/** Pushes `text` into a SessionPieceReader in random pieces (each after the previous one's pending tail, as a file reader does). */
function readInPieces(text: string, random: Random): SessionModel | undefined {
	const reader = new SessionPieceReader();
	let tail = '';
	for (let at = 0; at < text.length;) {
		const size = random.chance(0.2) ? random.int(1, 40) : random.int(40, 20000);
		const piece = tail + text.slice(at, at + size);
		at += size;
		if (!reader.push(piece)) {
			return undefined;
		}
		tail = piece.slice(piece.lastIndexOf('\n') + 1);
	}
	return reader.model();
}

describe('session model: read in pieces into one model (SessionPieceReader)', function () {
	this.timeout(120000);
	const lines = readFileSync(realFile, 'utf8').split(/(?<=\n)/);

	for (const seed of [1, 2, 3, 42, 1337]) {
		it(`gives the cold read's model for random pieces (seed ${seed})`, () => {
			const random = new Random(seed);
			const text = new SessionTextMutator(random).withRandomBranchesAndLabels(lines.slice(0, 400).join(''));
			const model = readInPieces(text, random);
			assert.ok(model);
			assert.deepStrictEqual(observable(model), observable(runSteps(parseSessionSteps(text))), `seed ${seed}`);
		});
	}

	it('gives the cold read\'s model of a session real pi-condense 2.9.1 pruned, and of an empty file', () => {
		const text = readFileSync(join(piCondenseSessionsDir, 'large-bulk-2.9.1', 'session.jsonl'), 'utf8');
		const model = readInPieces(text, new Random(7));
		assert.ok(model);
		assert.deepStrictEqual(observable(model), observable(runSteps(parseSessionSteps(text))));
		assert.deepStrictEqual(observable(new SessionPieceReader().model()), observable(runSteps(parseSessionSteps(''))));
	});

	it('says when a file must be read whole (no header, or a v1 file), and takes nothing after its model', () => {
		assert.equal(new SessionPieceReader().push('{"type":"message","id":"a"}\n'), false);
		const v1 = readFileSync(join(realSessionsDir, 'large-session.jsonl'), 'utf8');
		assert.equal(new SessionPieceReader().push(v1.slice(0, v1.indexOf('\n', 5000) + 1)), false);
		const reader = new SessionPieceReader();
		assert.equal(reader.push(lines.slice(0, 10).join('')), true);
		reader.model();
		assert.throws(() => reader.push(lines.slice(10, 20).join('')), /already taken/);
	});
});
