import assert from 'node:assert/strict';
import { describeConfigProblem, resolveConfig as resolveFor } from '../../../../src/engine/config/resolve';
import { SHALLOW_MERGE_REASON } from '../../../../src/engine/config/configReader';
import { defaults, LATEST, R200 } from '../../../support/releases';
import { releaseRules } from '../../../../src/engine/release/releases';

/** Most rules here hold for every release; these read as the latest one does. */
const resolveConfig = (raw: unknown) => resolveFor(raw, LATEST);
const DEFAULT_CONFIG = defaults(LATEST);

describe('resolveConfig', () => {
	it('gives the defaults for a missing contextPrune, with no problems', () => {
		const { config, problems } = resolveConfig(undefined);
		assert.deepEqual(config, DEFAULT_CONFIG);
		assert.deepEqual(problems, []);
	});

	it('uses the release\'s defaults and reads only the keys the release knows', () => {
		assert.deepEqual(defaults(R200).thinkingStrip, { enabled: true, keepLastTurns: 16 });
		assert.equal('recoveryGraceTurns' in defaults(R200), false);
		assert.equal(defaults(releaseRules('2.3.0')).recoveryGraceTurns, 3);
		assert.equal('summarizerIdleTimeoutMs' in defaults(releaseRules('2.3.0')), false);
		assert.deepEqual([defaults(releaseRules('2.4.0')).summarizerIdleTimeoutMs, defaults(releaseRules('2.4.0')).summarizerMaxTimeoutMs], [20000, 180000]);
		assert.equal('thinkingStrip' in DEFAULT_CONFIG, false);
		const raw = { thinkingStrip: { enabled: true, keepLastTurns: 2 }, recoveryGraceTurns: 1, summarizerIdleTimeoutMs: 5 };
		const latest = resolveConfig(raw);
		assert.equal('thinkingStrip' in latest.config, false, 'a leftover thinkingStrip is not read by 2.5.0+');
		assert.deepEqual(latest.ignored, ['thinkingStrip']);
		const old = resolveFor(raw, R200);
		assert.deepEqual(old.config.thinkingStrip, { enabled: true, keepLastTurns: 2 });
		assert.equal('recoveryGraceTurns' in old.config, false);
		assert.deepEqual(old.ignored, ['recoveryGraceTurns', 'summarizerIdleTimeoutMs']);
		assert.deepEqual([...old.problems, ...latest.problems], []);
	});

	it('floors the later keys as pi-condense does, and falls back to the default for anything else', () => {
		const { config, problems } = resolveConfig({ recoveryGraceTurns: 2.7, summarizerIdleTimeoutMs: 0, summarizerMaxTimeoutMs: -1 });
		assert.deepEqual([config.recoveryGraceTurns, config.summarizerIdleTimeoutMs, config.summarizerMaxTimeoutMs], [2, 0, 180000]);
		assert.deepEqual(problems.map((p) => p.key), ['summarizerMaxTimeoutMs']);
		assert.equal(resolveConfig({ recoveryGraceTurns: '3' }).config.recoveryGraceTurns, 3);
		assert.equal(resolveConfig({ recoveryGraceTurns: null }).config.recoveryGraceTurns, 3);
	});

	it('keeps the defaults of the missing keys of a partial nested block, and reports each (pi-condense leaves them missing)', () => {
		const { config, problems } = resolveConfig({ chainCompression: { rollingWindow: 5 }, purgeErrors: { enabled: false } });
		assert.deepEqual(config.chainCompression, { ...DEFAULT_CONFIG.chainCompression, rollingWindow: 5 });
		assert.deepEqual(config.purgeErrors, { enabled: false, cooldownTurns: 2, minArgChars: 500 });
		assert.deepEqual(problems.map(describeConfigProblem), [
			...['enabled: missing', 'stripFinalAssistantThinking: missing', 'fuseRangeSummary: missing'].map((k) => `contextPrune.chainCompression.${k} (${SHALLOW_MERGE_REASON}); using true`),
			`contextPrune.purgeErrors.cooldownTurns: missing (${SHALLOW_MERGE_REASON}); using 2`,
			`contextPrune.purgeErrors.minArgChars: missing (${SHALLOW_MERGE_REASON}); using 500`,
		]);
		const strip = resolveFor({ thinkingStrip: { keepLastTurns: 4 } }, R200);
		assert.deepEqual(strip.config.thinkingStrip, { enabled: true, keepLastTurns: 4 });
		assert.deepEqual(strip.problems.map((p) => p.key), ['thinkingStrip.enabled']);
		assert.deepEqual(resolveFor({ thinkingStrip: { keepLastTurns: 4 } }, LATEST).problems, [], 'a block the release does not read is not reported');
	});

	it('keeps every valid user value', () => {
		const raw = {
			enabled: true, showPruneStatusLine: false, summarizerModel: 'openrouter/anthropic/claude-haiku-4.5',
			summarizerThinking: 'low', pruneOn: 'on-demand', batchingMode: 'agent-message', quietOversizedSkips: true,
			minBatchChars: 0, protectedTools: ['todo'], protectedPaths: [],
			chainCompression: { enabled: false, rollingWindow: 0, stripFinalAssistantThinking: false, fuseRangeSummary: false },
			purgeErrors: { enabled: false, cooldownTurns: 10, minArgChars: 100 },
			dedupByContentHash: false, autoBudgetThreshold: 1, spillThreshold: 1, spillPreviewBytes: 0, budgetTurnDelta: 0.05,
			recoveryGraceTurns: 0, summarizerIdleTimeoutMs: 5000, summarizerMaxTimeoutMs: 60000,
		};
		const { config, problems } = resolveConfig(raw);
		assert.deepEqual(problems, []);
		assert.deepEqual(config, raw);
	});

	it('replaces each invalid value by its default and reports key, value, reason and the value used', () => {
		const { config, problems } = resolveConfig({
			enabled: 'yes',
			minBatchChars: -1,
			pruneOn: 'sometimes',
			summarizerModel: 'haiku',
			chainCompression: { rollingWindow: 2.5 },
			purgeErrors: 'off',
			protectedTools: ['read', 42, 'bash'],
			protectedPaths: '**/*.md',
			spillThreshold: 0,
		});
		assert.equal(config.enabled, false);
		assert.equal(config.minBatchChars, 1000);
		assert.equal(config.pruneOn, 'agent-message');
		assert.equal(config.summarizerModel, 'default');
		assert.equal(config.chainCompression.rollingWindow, 3);
		assert.deepEqual(config.purgeErrors, DEFAULT_CONFIG.purgeErrors);
		assert.deepEqual(config.protectedTools, ['read', 'bash']);
		assert.deepEqual(config.protectedPaths, ['**/skills/**/*.md']);
		assert.equal(config.spillThreshold, 65536);
		const byKey = new Map(problems.map((p) => [p.key, p]));
		assert.deepEqual([...byKey.keys()].sort(), [
			'chainCompression.enabled', 'chainCompression.fuseRangeSummary', 'chainCompression.rollingWindow', 'chainCompression.stripFinalAssistantThinking',
			'enabled', 'minBatchChars', 'protectedPaths', 'protectedTools',
			'pruneOn', 'purgeErrors', 'spillThreshold', 'summarizerModel',
		]);
		assert.deepEqual(byKey.get('minBatchChars'), { key: 'minBatchChars', value: '-1', reason: 'expected a whole number ≥ 0', used: '1000' });
		assert.deepEqual(byKey.get('chainCompression.rollingWindow'), { key: 'chainCompression.rollingWindow', value: '2.5', reason: 'expected a whole number ≥ 0', used: '3' });
		assert.equal(byKey.get('pruneOn')?.reason, 'expected one of "agent-message", "on-demand"');
		assert.equal(byKey.get('protectedTools')?.used, '["read","bash"]');
		assert.equal(describeConfigProblem(byKey.get('minBatchChars')!), 'contextPrune.minBatchChars: -1 (expected a whole number ≥ 0); using 1000');
	});

	it('turns an out-of-range budget fraction off (null) as pi-condense does, and accepts 0 as "off" silently', () => {
		const { config, problems } = resolveConfig({ autoBudgetThreshold: 80, budgetTurnDelta: 0 });
		assert.equal(config.autoBudgetThreshold, null);
		assert.equal(config.budgetTurnDelta, null);
		assert.deepEqual(problems, [{ key: 'autoBudgetThreshold', value: '80', reason: 'expected a number in (0, 1] or null', used: 'null' }]);
		assert.equal(resolveConfig({ autoBudgetThreshold: -0.5 }).config.autoBudgetThreshold, null);
		assert.equal(resolveConfig({ autoBudgetThreshold: '0.8' }).problems[0]?.key, 'autoBudgetThreshold');
		assert.equal(resolveConfig({ autoBudgetThreshold: 0.8 }).config.autoBudgetThreshold, 0.8);
	});

	it('checks summarizerModel as "default" or provider/model-id', () => {
		for (const good of ['default', 'anthropic/claude-haiku-4-5', 'openrouter/qwen/qwen3-coder', 'ollama/qwen2.5-coder:7b']) {
			assert.deepEqual(resolveConfig({ summarizerModel: good }).problems, [], good);
		}
		for (const bad of ['', 'anthropic/', '/claude', 'anthropic claude/x', 42]) {
			assert.equal(resolveConfig({ summarizerModel: bad }).config.summarizerModel, 'default', String(bad));
		}
	});

	it('keeps unknown keys, top-level and nested, so they round-trip', () => {
		const { config, problems } = resolveConfig({ futureKey: { a: 1 }, chainCompression: { ...DEFAULT_CONFIG.chainCompression, newOption: true } });
		assert.deepEqual(problems, []);
		assert.deepEqual((config as unknown as Record<string, unknown>).futureKey, { a: 1 });
		assert.equal((config.chainCompression as unknown as Record<string, unknown>).newOption, true);
	});

	it('reports a contextPrune that is not an object and uses the defaults', () => {
		const { config, problems } = resolveConfig([1, 2]);
		assert.deepEqual(config, DEFAULT_CONFIG);
		assert.equal(problems.length, 1);
		assert.equal(describeConfigProblem(problems[0]!), 'contextPrune: [1,2] (expected an object); using the defaults');
	});

	it('shortens long bad values in problems', () => {
		const { problems } = resolveConfig({ summarizerModel: 'x'.repeat(500) });
		assert.ok(problems[0]!.value.length <= 60);
		assert.ok(problems[0]!.value.endsWith('…'));
	});

	it('never mutates its input and never shares nested objects with DEFAULT_CONFIG that could be mutated', () => {
		const raw = { chainCompression: { rollingWindow: 1 } };
		const snapshot = JSON.stringify(raw);
		const { config } = resolveConfig(raw);
		assert.equal(JSON.stringify(raw), snapshot);
		assert.notEqual(config.chainCompression, raw.chainCompression);
		assert.notEqual(config.purgeErrors, DEFAULT_CONFIG.purgeErrors);
	});
});
