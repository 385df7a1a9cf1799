/**
 * `piCondense.summarizer.concurrency`: what package.json declares (a machine setting whose default
 * and bounds are the engine's) and how a value read from it becomes a limit.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { concurrencySetting, DEFAULT_CONCURRENCY, MAX_CONCURRENCY } from '../../../../src/engine/flush';
import { repoRoot } from '../../../support/paths';

interface Manifest {
	readonly contributes: { readonly configuration: { readonly properties: Readonly<Record<string, Readonly<Record<string, unknown>>>> } };
}

describe('summarizer concurrency setting', () => {
	it('package.json declares it as a machine setting with the engine\'s default and bounds', () => {
		const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as Manifest;
		const property = manifest.contributes.configuration.properties['piCondense.summarizer.concurrency'];
		assert.deepEqual(
			{ type: property?.['type'], default: property?.['default'], minimum: property?.['minimum'], maximum: property?.['maximum'], scope: property?.['scope'] },
			{ type: 'integer', default: DEFAULT_CONCURRENCY, minimum: 1, maximum: MAX_CONCURRENCY, scope: 'machine' },
		);
	});

	it('reads whole numbers within the bounds; anything else is the default', () => {
		const cases: [unknown, number][] = [
			[undefined, DEFAULT_CONCURRENCY], [null, DEFAULT_CONCURRENCY], ['8', DEFAULT_CONCURRENCY], [Number.NaN, DEFAULT_CONCURRENCY], [Number.POSITIVE_INFINITY, DEFAULT_CONCURRENCY],
			[1, 1], [4, 4], [3.7, 3], [0, 1], [-5, 1], [1000, MAX_CONCURRENCY],
		];
		for (const [value, expected] of cases) {
			assert.equal(concurrencySetting(value), expected, String(value));
		}
	});
});
