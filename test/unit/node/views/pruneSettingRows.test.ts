import assert from 'node:assert/strict';
import { DEFAULT_CONFIG } from '../../../../src/engine/config/defaults';
import { resolveConfig } from '../../../../src/engine/config/resolve';
import { formatSettingValue, parseSettingInput, SETTING_ROWS, settingValue } from '../../../../src/node/views/pruneSettingRows';

function leafKeys(value: Record<string, unknown>, prefix = ''): string[] {
	return Object.entries(value).flatMap(([key, inner]) => (typeof inner === 'object' && inner !== null && !Array.isArray(inner)
		? leafKeys(inner as Record<string, unknown>, `${prefix}${key}.`)
		: [`${prefix}${key}`]));
}

describe('settings editor rows', () => {
	it('cover every contextPrune key exactly once', () => {
		const keys = SETTING_ROWS.map((row) => row.key);
		assert.equal(new Set(keys).size, keys.length);
		assert.deepEqual([...keys].sort(), leafKeys(DEFAULT_CONFIG as unknown as Record<string, unknown>).sort());
	});

	it('show current values, with preset labels and custom values marked', () => {
		const { config } = resolveConfig({ minBatchChars: 1000, chainCompression: { rollingWindow: 7 }, autoBudgetThreshold: 0.8, protectedTools: ['bash'], budgetTurnDelta: 0.25 });
		const shown = Object.fromEntries(SETTING_ROWS.map((row) => [row.key, formatSettingValue(row, config)]));
		assert.equal(shown['minBatchChars'], '1000 (default)');
		assert.equal(shown['chainCompression.rollingWindow'], '7');
		assert.equal(shown['autoBudgetThreshold'], '80%');
		assert.equal(shown['protectedTools'], 'bash');
		assert.equal(shown['protectedPaths'], '**/skills/**/*.md');
		assert.equal(shown['budgetTurnDelta'], '25%');
		assert.equal(shown['summarizerModel'], 'default (the session\'s model)');
		assert.equal(shown['enabled'], 'off');
		assert.equal(settingValue(config, 'chainCompression.rollingWindow'), 7);
	});

	it('parse typed numbers and fractions', () => {
		const row = (key: string) => SETTING_ROWS.find((candidate) => candidate.key === key)!;
		assert.deepEqual(parseSettingInput(row('spillThreshold'), '4096'), { value: 4096 });
		assert.equal(typeof parseSettingInput(row('spillThreshold'), '0'), 'string');
		assert.deepEqual(parseSettingInput(row('budgetTurnDelta'), '20%'), { value: 0.2 });
		assert.deepEqual(parseSettingInput(row('budgetTurnDelta'), 'off'), { value: null });
		assert.equal(typeof parseSettingInput(row('budgetTurnDelta'), '1.5'), 'string');
	});
});
