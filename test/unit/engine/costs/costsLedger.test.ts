/**
 * The costs ledger: a session's overview kept as the session grows. Continued over appended entries, at any
 * cut (inside a flush too, and right between a late flush and the reply it follows), it hands out exactly
 * the overview one pass over the whole file gives, on every reference session; an append reads its new
 * entries only; an older ledger extended again leaves the newer one as it was.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CostsLedger, NO_PRICES, sessionOverviewSteps } from '../../../../src/engine/costs';
import { parseSessionSteps } from '../../../../src/engine/session';
import type { SessionEntry } from '../../../../src/engine/session/types';
import { runSteps } from '../../../../src/engine/steps';
import { piCondenseSessionsDir, realSessionFiles } from '../../../support/paths';
import { Random } from '../../../support/random';

function referenceFiles(): string[] {
	const pruned = readdirSync(piCondenseSessionsDir, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => join(piCondenseSessionsDir, entry.name, 'session.jsonl'));
	return [...realSessionFiles(), ...pruned].sort();
}

const entriesOf = (file: string): readonly SessionEntry[] => runSteps(parseSessionSteps(readFileSync(file, 'utf8'))).entries;

/** The entries as a list whose first `from` items throw when read: proof that a pass never went back to them. */
function readableFrom(entries: readonly SessionEntry[], from: number): readonly SessionEntry[] {
	return new Proxy(entries, {
		get(target, property, receiver) {
			if (typeof property === 'string' && /^\d+$/.test(property) && Number(property) < from) {
				throw new Error(`entry ${property} read again`);
			}
			return Reflect.get(target, property, receiver) as unknown;
		},
	});
}

describe('costs: the ledger kept as a session grows', () => {
	for (const file of referenceFiles()) {
		it(`${file.split('/').slice(-2).join('/')}: continued at random cuts, the same overview as one pass`, () => {
			const entries = entriesOf(file);
			const whole = runSteps(sessionOverviewSteps(entries, NO_PRICES));
			const random = new Random(entries.length);
			for (let trial = 0; trial < 3; trial++) {
				let ledger = CostsLedger.empty();
				for (let end = 0; end < entries.length;) {
					end = Math.min(entries.length, end + random.int(1, Math.max(2, Math.ceil(entries.length / 8))));
					ledger = runSteps(ledger.extendSteps(readableFrom(entries.slice(0, end), ledger.entriesRead)));
					assert.equal(ledger.entriesRead, end);
				}
				assert.deepEqual(ledger.overview(NO_PRICES), whole, `trial ${trial}`);
			}
		});
	}

	it('one entry at a time, through flushes and the replies they follow', () => {
		const entries = entriesOf(join(piCondenseSessionsDir, 'batching-pi-1.6.0', 'session.jsonl'));
		let ledger = CostsLedger.empty();
		for (let end = 1; end <= entries.length; end++) {
			ledger = runSteps(ledger.extendSteps(readableFrom(entries.slice(0, end), ledger.entriesRead)));
			assert.deepEqual(ledger.overview(NO_PRICES), runSteps(sessionOverviewSteps(entries.slice(0, end), NO_PRICES)), `after ${end} entries`);
		}
	});

	it('an older ledger extended again does not change the newer one, and stays itself', () => {
		const entries = entriesOf(join(piCondenseSessionsDir, 'basic', 'session.jsonl'));
		const half = runSteps(CostsLedger.empty().extendSteps(entries.slice(0, 20)));
		const halfOverview = half.overview(NO_PRICES);
		const full = runSteps(half.extendSteps(entries));
		const fullOverview = full.overview(NO_PRICES);
		// Another line from the same ledger (the store re-read nothing; a caller kept the older one).
		const other = runSteps(half.extendSteps(entries.slice(0, 30)));
		assert.deepEqual(other.overview(NO_PRICES), runSteps(sessionOverviewSteps(entries.slice(0, 30), NO_PRICES)));
		assert.deepEqual(full.overview(NO_PRICES), fullOverview);
		assert.deepEqual(runSteps(full.extendSteps(entries)).overview(NO_PRICES), fullOverview, 'nothing new: the same ledger');
		assert.deepEqual(half.overview(NO_PRICES), halfOverview);
		assert.deepEqual(halfOverview, runSteps(sessionOverviewSteps(entries.slice(0, 20), NO_PRICES)));
	});
});
