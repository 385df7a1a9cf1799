import assert from 'node:assert/strict';
import { KNOWN_RELEASES, matchRelease, releaseRules } from '../../../../src/engine/release';

describe('pi-condense release rules', () => {
	it('maps an installed version to the newest known release at or below it', () => {
		assert.deepEqual(matchRelease('2.9.1'), { kind: 'known', release: '2.9.1' });
		assert.deepEqual(matchRelease('v2.4.3'), { kind: 'known', release: '2.4.3' });
		assert.deepEqual(matchRelease('2.6.0-beta.1'), { kind: 'known', release: '2.5.0' });
		assert.deepEqual(matchRelease('2.10.0'), { kind: 'newer', release: '2.9.1', version: '2.10.0' });
		assert.deepEqual(matchRelease('3.0.0'), { kind: 'newer', release: '2.9.1', version: '3.0.0' });
		assert.deepEqual(matchRelease('1.3.1'), { kind: 'older', release: '2.0.0', version: '1.3.1' });
		assert.equal(matchRelease('latest'), undefined);
		assert.equal(matchRelease('^2.4.0'), undefined);
	});

	it('switches each rule at the release that changed it', () => {
		const changes = KNOWN_RELEASES.map((version) => releaseRules(version));
		const at = (version: string) => changes.find((rules) => rules.version === version);
		assert.equal(at('2.0.0')?.summaryDisplay, true);
		assert.equal(at('2.0.1')?.summaryDisplay, false);
		assert.equal(at('2.0.1')?.inlineRefs, false);
		assert.equal(at('2.1.0')?.inlineRefs, true);
		assert.equal(at('2.2.0')?.summarizerFallback, 'starving');
		assert.equal(at('2.2.1')?.summarizerFallback, 'fixed');
		assert.equal(at('2.2.1')?.recoveryGrace, false);
		assert.equal(at('2.3.0')?.recoveryGrace, true);
		assert.equal(at('2.4.2')?.thinkingStrip, 'live-count');
		assert.equal(at('2.4.3')?.thinkingStrip, 'flush-boundary');
		assert.equal(at('2.5.0')?.thinkingStrip, 'none');
		assert.equal(at('2.5.0')?.occurrenceKeys, false);
		assert.equal(at('2.6.0')?.occurrenceKeys, true);
		assert.equal(at('2.6.0')?.orphanSweep, 'assistant-only');
		assert.equal(at('2.9.0')?.orphanSweep, 'assistant-only');
		assert.equal(at('2.9.1')?.orphanSweep, 'barrier');
		assert.equal(at('2.6.0')?.flushMetrics, false);
		assert.equal(at('2.7.0')?.flushMetrics, true);
		assert.equal(at('2.7.0')?.budgetWindowCap, undefined);
		assert.equal(at('2.8.0')?.budgetWindowCap, 300_000);
		assert.equal(at('2.8.0')?.deterministicChains, false);
		assert.equal(at('2.9.0')?.deterministicChains, true);
	});
});
