import assert from 'node:assert/strict';
import {
	parseBatchingMode, parseDedup, parseMinBatchChars, parseModelArgument, parseNameList, parsePruneOn, parseRecoveryGrace, parseThinking,
} from '../../../../src/engine/pruner/prunerArguments';
import {
	dedupStatusText, DISABLED_TEXT, ENABLED_TEXT, recoveryGraceSetText, recoveryGraceText, statusReportText,
} from '../../../../src/engine/pruner/prunerTexts';
import { defaults, LATEST, R200 } from '../../../support/releases';
import { releaseRules } from '../../../../src/engine/release/releases';

const DEFAULT_CONFIG = defaults();

describe('/pruner arguments', () => {
	it('splits name lists on commas and spaces; none and clear empty them', () => {
		assert.deepEqual(parseNameList('bash, read  grep,,bash'), { ok: true, value: ['bash', 'read', 'grep'] });
		assert.deepEqual(parseNameList('none'), { ok: true, value: [] });
		assert.deepEqual(parseNameList(' clear '), { ok: true, value: [] });
		assert.deepEqual(parseNameList(''), { ok: true, value: [] });
	});

	it('takes whole numbers ≥ 0 for min-batch-chars', () => {
		assert.deepEqual(parseMinBatchChars(' 0 '), { ok: true, value: 0 });
		assert.deepEqual(parseMinBatchChars('2000'), { ok: true, value: 2000 });
		for (const bad of ['-1', '1.5', 'abc', '', '1e3']) {
			assert.equal(parseMinBatchChars(bad).ok, false, bad);
		}
	});

	it('validates every enumerated value, prune-on included (pi-condense 2.0.0 stored it unchecked)', () => {
		assert.deepEqual(parseThinking('HIGH'), { ok: true, value: 'high' });
		assert.equal(parseThinking('loud').ok, false);
		assert.deepEqual(parsePruneOn('on-demand'), { ok: true, value: 'on-demand' });
		assert.equal(parsePruneOn('sometimes').ok, false);
		assert.deepEqual(parseBatchingMode('turn'), { ok: true, value: 'turn' });
		assert.equal(parseBatchingMode('batch').ok, false);
		assert.deepEqual(parseDedup('true'), { ok: true, value: true });
		assert.deepEqual(parseDedup('off'), { ok: true, value: false });
		assert.deepEqual(parseDedup(''), { ok: true, value: 'status' });
		assert.equal(parseDedup('maybe').ok, false);
	});

	it('reads a model with an optional thinking suffix; a colon that is not a level stays in the id', () => {
		assert.deepEqual(parseModelArgument('default'), { ok: true, value: { model: 'default' } });
		assert.deepEqual(parseModelArgument('anthropic/claude-haiku-4-5:low'), { ok: true, value: { model: 'anthropic/claude-haiku-4-5', thinking: 'low' } });
		assert.deepEqual(parseModelArgument('ollama/qwen2.5-coder:7b'), { ok: true, value: { model: 'ollama/qwen2.5-coder:7b' } });
		for (const bad of ['claude', '/x', 'p/', 'p/a b', 'p/x:default']) {
			assert.equal(parseModelArgument(bad).ok, bad === 'p/x:default', bad);
		}
	});
});

describe('/pruner texts', () => {
	it('keeps pi-condense\'s exact on/off notices', () => {
		assert.equal(ENABLED_TEXT, 'Context pruning enabled.');
		assert.equal(DISABLED_TEXT, 'Context pruning disabled.');
	});

	it('reports the status with the summarizer block, or says there were no calls', () => {
		const text = statusReportText(DEFAULT_CONFIG, undefined, R200);
		assert.equal(text, [
			'pruner status:',
			'  enabled:     no',
			'  model:       default (the session\'s model)',
			'  thinking:    Default (default)',
			'  trigger:     On agent message',
			'  batching:    Per turn',
			'  dedup:       on',
			'  status line: on',
			'--- summarizer ---',
			'(no summarizer calls yet)',
		].join('\n'));
		const withCalls = statusReportText(DEFAULT_CONFIG, { callCount: 2, totalInputTokens: 1500, totalOutputTokens: 80, totalCost: 0.0004, chainsCompressed: 1, rangesSummarized: 0 }, R200);
		assert.match(withCalls, /--- summarizer ---\n {2}calls: {7}2\n {2}input: {7}1\.5k tokens\n {2}output: {6}80 tokens\n {2}cost: {8}<\$0\.001\n {2}chains: {6}1 compressed$/);
		assert.match(dedupStatusText(false), /^Dedup by content hash is OFF\./);
	});

	it('shows the summarizer timeouts after the thinking level from 2.4.0', () => {
		const lines = statusReportText({ ...defaults(LATEST), summarizerIdleTimeoutMs: 0 }, undefined, LATEST).split('\n');
		assert.deepEqual(lines.slice(3, 6), ['  thinking:    Default (default)', '  idle to:  disabled', '  max to:   180s']);
		assert.equal(statusReportText(defaults(releaseRules('2.3.0')), undefined, releaseRules('2.3.0')).includes('idle to'), false);
	});

	it('ends with the --- context --- block from 2.7.0, pruning on or off, when a session gives metrics', () => {
		const context = { metrics: { openCycleThinkingTokens: 3200, largestChainSharePct: 41, frontierGapTokens: 5120 }, rearmed: true };
		const off = { ...defaults(LATEST), enabled: false };
		const lines = statusReportText(off, undefined, LATEST, context).split('\n');
		assert.deepEqual(lines.slice(-6), [
			'(no summarizer calls yet)',
			'  --- context ---',
			'  thinking:     3.2k tokens (open segment)',
			'  chain share:  41%',
			'  frontier gap: 5.1k tokens',
			'  rearmed:      yes',
		]);
		assert.equal(statusReportText(off, undefined, LATEST, { ...context, rearmed: false }).endsWith('  frontier gap: 5.1k tokens'), true);
		assert.equal(statusReportText(off, undefined, LATEST, { metrics: undefined, rearmed: false }).includes('--- context ---'), false);
		assert.equal(statusReportText(defaults(releaseRules('2.6.0')), undefined, releaseRules('2.6.0'), context).includes('--- context ---'), false);
	});

	it('parses recovery-grace as pi-condense does, with its exact texts', () => {
		assert.deepEqual(parseRecoveryGrace('3abc'), { ok: true, value: 3 });
		assert.deepEqual(parseRecoveryGrace('0'), { ok: true, value: 0 });
		assert.deepEqual(parseRecoveryGrace('-1'), { ok: false, message: 'Invalid recovery-grace: "-1". Expected a non-negative integer (0 disables).' });
		assert.deepEqual(parseRecoveryGrace('x'), { ok: false, message: 'Invalid recovery-grace: "x". Expected a non-negative integer (0 disables).' });
		assert.equal(recoveryGraceText(0), 'Current recovery grace: disabled.');
		assert.equal(recoveryGraceText(3), 'Current recovery grace: 3 user-turn-group(s).');
		assert.equal(recoveryGraceSetText(0), 'recovery-grace set to 0 - context_tree_query output stubs immediately.');
		assert.equal(recoveryGraceSetText(5), 'recovery-grace set to 5 user-turn-group(s).');
	});
});
