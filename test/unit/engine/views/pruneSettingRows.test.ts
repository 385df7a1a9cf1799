import assert from 'node:assert/strict';
import { resolveConfig } from '../../../../src/engine/config/resolve';
import { SETTING_GROUPS, SETTING_HELP } from '../../../../src/engine/views/pruneSettingHelp';
import { formatSettingValue, ignoredRowText, parseSettingInput, SETTING_ROWS, settingRows, settingValue, valueWithDefault } from '../../../../src/engine/views/pruneSettingRows';
import { defaults, LATEST, R200 } from '../../../support/releases';
import { releaseRules } from '../../../../src/engine/release/releases';

function leafKeys(value: Record<string, unknown>, prefix = ''): string[] {
	return Object.entries(value).flatMap(([key, inner]) => (typeof inner === 'object' && inner !== null && !Array.isArray(inner)
		? leafKeys(inner as Record<string, unknown>, `${prefix}${key}.`)
		: [`${prefix}${key}`]));
}

describe('settings editor rows', () => {
	it('cover every contextPrune key of every release exactly once', () => {
		const keys = SETTING_ROWS.map((row) => row.key);
		assert.equal(new Set(keys).size, keys.length);
		const everyKey = new Set(['2.0.0', '2.4.3', '2.9.1'].flatMap((v) => leafKeys(defaults(releaseRules(v as '2.0.0')) as unknown as Record<string, unknown>)));
		assert.deepEqual([...keys].sort(), [...everyKey].sort());
	});

	it('show the keys the release reads by group, each with what it does, and mark the ones it ignores (never dropped)', () => {
		const latest = settingRows(LATEST);
		assert.deepEqual([...new Set(latest.filter((row) => !row.ignored).map((row) => row.group))], [...SETTING_GROUPS].filter((group) => group !== 'Thinking'));
		assert.deepEqual(latest.filter((row) => row.group === 'Summarizer').map((row) => row.key), ['summarizerModel', 'summarizerThinking', 'summarizerIdleTimeoutMs', 'summarizerMaxTimeoutMs']);
		for (const row of latest) {
			assert.ok(row.description.length > 20 && !row.description.includes('\n'), row.key);
		}
		assert.deepEqual(latest.filter((row) => row.ignored).map((row) => row.key), ['thinkingStrip.enabled', 'thinkingStrip.keepLastTurns']);
		const old = settingRows(R200);
		assert.deepEqual(old.filter((row) => row.ignored).map((row) => row.key), ['recoveryGraceTurns', 'summarizerIdleTimeoutMs', 'summarizerMaxTimeoutMs']);
		assert.equal(old.length, latest.length);
		const strip = latest.find((row) => row.key === 'thinkingStrip.enabled');
		assert.ok(strip);
		assert.equal(ignoredRowText(strip, { thinkingStrip: { enabled: true } }, LATEST), 'ignored by pi-condense 2.9.1 (true kept in settings.json)');
		assert.equal(ignoredRowText(strip, undefined, LATEST), 'ignored by pi-condense 2.9.1 (not set)');
	});

	it('every key has a one-line description', () => {
		assert.deepEqual(Object.keys(SETTING_HELP).sort(), SETTING_ROWS.map((row) => row.key).sort());
	});

	it('show the release\'s default beside a value that differs from it', () => {
		const { config } = resolveConfig({ minBatchChars: 4000, enabled: true }, LATEST);
		const row = (key: string) => SETTING_ROWS.find((candidate) => candidate.key === key)!;
		assert.equal(valueWithDefault(row('minBatchChars'), config, LATEST), '4000 · default: 1000');
		assert.equal(valueWithDefault(row('enabled'), config, LATEST), 'on · default: off');
		assert.equal(valueWithDefault(row('chainCompression.rollingWindow'), config, LATEST), '3 (default)');
		assert.equal(valueWithDefault(row('dedupByContentHash'), config, LATEST), 'on (default)');
	});

	it('show current values, with preset labels and custom values marked', () => {
		const { config } = resolveConfig({ minBatchChars: 1000, chainCompression: { rollingWindow: 7 }, autoBudgetThreshold: 0.8, protectedTools: ['bash'], budgetTurnDelta: 0.25 }, LATEST);
		const shown = Object.fromEntries(SETTING_ROWS.map((row) => [row.key, formatSettingValue(row, config)]));
		assert.equal(shown['minBatchChars'], '1000 (default)');
		assert.equal(shown['chainCompression.rollingWindow'], '7');
		assert.equal(shown['autoBudgetThreshold'], '80%');
		assert.equal(shown['protectedTools'], 'bash');
		assert.equal(shown['protectedPaths'], '**/skills/**/*.md');
		assert.equal(shown['budgetTurnDelta'], '25%');
		assert.equal(shown['summarizerModel'], 'default (the session\'s model)');
		assert.equal(shown['enabled'], 'off');
		assert.equal(shown['recoveryGraceTurns'], '3 (default)');
		assert.equal(shown['summarizerIdleTimeoutMs'], '20s (default)');
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
