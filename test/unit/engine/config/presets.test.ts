import assert from 'node:assert/strict';
import {
	AUTO_BUDGET_PRESETS, BATCHING_MODES, IDLE_TIMEOUT_PRESETS, KEEP_LAST_TURNS_PRESETS, MAX_TIMEOUT_PRESETS, MIN_BATCH_CHARS_PRESETS, PRUNE_ON_MODES,
	PURGE_COOLDOWN_PRESETS, PURGE_MIN_ARG_PRESETS, RECOVERY_GRACE_PRESETS, ROLLING_WINDOW_PRESETS, SUMMARIZER_THINKING_LEVELS, type ConfigChoice,
} from '../../../../src/engine/config/presets';
import { BATCHING_MODE_VALUES, PRUNE_ON_VALUES, resolveConfig, SUMMARIZER_THINKING_VALUES } from '../../../../src/engine/config/resolve';
import { defaults, LATEST, R200 } from '../../../support/releases';

const DEFAULT_CONFIG = defaults(LATEST);
import { setConfigKey, withWholeBlocks } from '../../../../src/engine/config/setConfigKey';

function defaultOf<T>(choices: readonly ConfigChoice<T>[]): T | undefined {
	return choices.find((choice) => /default/i.test(choice.label))?.value;
}

describe('config presets', () => {
	it('offer the values of pi-condense\'s settings overlay', () => {
		assert.deepEqual(ROLLING_WINDOW_PRESETS.map((c) => c.value), [1, 2, 3, 5, 10]);
		assert.deepEqual(KEEP_LAST_TURNS_PRESETS.map((c) => c.value), [4, 8, 16, 32, 64]);
		assert.deepEqual(PURGE_COOLDOWN_PRESETS.map((c) => c.value), [1, 2, 3, 5, 10]);
		assert.deepEqual(PURGE_MIN_ARG_PRESETS.map((c) => c.value), [100, 500, 1000, 5000]);
		assert.deepEqual(MIN_BATCH_CHARS_PRESETS.map((c) => c.value), [0, 500, 1000, 2000, 5000]);
		assert.deepEqual(AUTO_BUDGET_PRESETS.map((c) => c.label), ['Off (default)', '60%', '70%', '80%', '90%']);
	});

	it('mark as "(default)" exactly the value of DEFAULT_CONFIG', () => {
		assert.equal(defaultOf(ROLLING_WINDOW_PRESETS), DEFAULT_CONFIG.chainCompression.rollingWindow);
		assert.equal(defaultOf(KEEP_LAST_TURNS_PRESETS), defaults(R200).thinkingStrip?.keepLastTurns);
		assert.equal(defaultOf(RECOVERY_GRACE_PRESETS), DEFAULT_CONFIG.recoveryGraceTurns);
		assert.equal(defaultOf(IDLE_TIMEOUT_PRESETS), DEFAULT_CONFIG.summarizerIdleTimeoutMs);
		assert.equal(defaultOf(MAX_TIMEOUT_PRESETS), DEFAULT_CONFIG.summarizerMaxTimeoutMs);
		assert.equal(defaultOf(PURGE_COOLDOWN_PRESETS), DEFAULT_CONFIG.purgeErrors.cooldownTurns);
		assert.equal(defaultOf(PURGE_MIN_ARG_PRESETS), DEFAULT_CONFIG.purgeErrors.minArgChars);
		assert.equal(defaultOf(MIN_BATCH_CHARS_PRESETS), DEFAULT_CONFIG.minBatchChars);
		assert.equal(defaultOf(AUTO_BUDGET_PRESETS), DEFAULT_CONFIG.autoBudgetThreshold);
	});

	it('only offer values that resolveConfig accepts', () => {
		const cases: [string, readonly ConfigChoice<unknown>[]][] = [
			['chainCompression.rollingWindow', ROLLING_WINDOW_PRESETS], ['thinkingStrip.keepLastTurns', KEEP_LAST_TURNS_PRESETS],
			['purgeErrors.cooldownTurns', PURGE_COOLDOWN_PRESETS], ['purgeErrors.minArgChars', PURGE_MIN_ARG_PRESETS],
			['minBatchChars', MIN_BATCH_CHARS_PRESETS], ['autoBudgetThreshold', AUTO_BUDGET_PRESETS],
			['pruneOn', PRUNE_ON_MODES], ['batchingMode', BATCHING_MODES], ['summarizerThinking', SUMMARIZER_THINKING_LEVELS],
			['recoveryGraceTurns', RECOVERY_GRACE_PRESETS], ['summarizerIdleTimeoutMs', IDLE_TIMEOUT_PRESETS], ['summarizerMaxTimeoutMs', MAX_TIMEOUT_PRESETS],
		];
		for (const [key, choices] of cases) {
			for (const choice of choices) {
				// The thinking strip is read up to 2.4.3 only; the latest release reads every other key here.
				const rules = key.startsWith('thinkingStrip') ? R200 : LATEST;
				assert.deepEqual(resolveConfig(setConfigKey({}, key, choice.value, defaults(rules)), rules).problems, [], `${key}=${String(choice.value)}`);
			}
		}
		assert.deepEqual(PRUNE_ON_MODES.map((c) => c.value), PRUNE_ON_VALUES);
		assert.deepEqual(BATCHING_MODES.map((c) => c.value), BATCHING_MODE_VALUES);
		assert.deepEqual(SUMMARIZER_THINKING_LEVELS.map((c) => c.value), SUMMARIZER_THINKING_VALUES);
	});
});

describe('setConfigKey', () => {
	const chainDefaults = defaults(LATEST).chainCompression;

	it('sets a nested key without touching the input or other keys, writing the block whole', () => {
		const raw = { enabled: true, chainCompression: { enabled: false, custom: 'kept' }, other: [1] };
		const next = setConfigKey(raw, 'chainCompression.rollingWindow', 5, defaults(LATEST));
		assert.deepEqual(next, { enabled: true, chainCompression: { ...chainDefaults, enabled: false, custom: 'kept', rollingWindow: 5 }, other: [1] });
		assert.deepEqual(raw, { enabled: true, chainCompression: { enabled: false, custom: 'kept' }, other: [1] });
		// pi-condense merges shallowly: a partial block would leave Pi without the missing keys.
		assert.deepEqual(resolveConfig(next, LATEST).problems, []);
		assert.deepEqual(resolveConfig(raw, LATEST).problems.map((p) => p.key), ['chainCompression.rollingWindow', 'chainCompression.stripFinalAssistantThinking', 'chainCompression.fuseRangeSummary']);
	});

	it('creates missing blocks whole, replaces a non-object block, and puts a key set to undefined back to its default', () => {
		const purgeDefaults = defaults(LATEST).purgeErrors;
		assert.deepEqual(setConfigKey({}, 'purgeErrors.enabled', false, defaults(LATEST)), { purgeErrors: { ...purgeDefaults, enabled: false } });
		assert.deepEqual(setConfigKey({ purgeErrors: 'bad' }, 'purgeErrors.enabled', false, defaults(LATEST)), { purgeErrors: { ...purgeDefaults, enabled: false } });
		assert.deepEqual(setConfigKey({ enabled: true, minBatchChars: 5 }, 'minBatchChars', undefined, defaults(LATEST)), { enabled: true });
		assert.deepEqual(setConfigKey({ purgeErrors: { cooldownTurns: 9 } }, 'purgeErrors.cooldownTurns', undefined, defaults(LATEST)), { purgeErrors: purgeDefaults });
		assert.throws(() => setConfigKey({}, '', 1, defaults(LATEST)), /Invalid contextPrune key path/);
	});

	it('fills only the blocks a file has (withWholeBlocks)', () => {
		assert.deepEqual(withWholeBlocks({ minBatchChars: 5, chainCompression: { rollingWindow: 1 } }, defaults(LATEST)), { minBatchChars: 5, chainCompression: { ...chainDefaults, rollingWindow: 1 } });
	});
});
