/**
 * Turns the raw `contextPrune` value from settings.json into a complete, valid configuration, as
 * one pi-condense release reads it. Pure.
 *
 * The release decides the defaults and which keys are read at all: `thinkingStrip` up to 2.4.3,
 * `recoveryGraceTurns` from 2.3.0, the summarizer timeouts from 2.4.0. A key the release does not
 * read is left out of the configuration and listed in `ignored` (it stays in the file). Unlike
 * pi-condense (a shallow `{...DEFAULT_CONFIG, ...file}`, which loses the defaults of a partial
 * nested block) this merges every nested block key by key and validates every key. Each invalid
 * value is replaced by its default and reported; unknown keys are kept as they are.
 */
import type { ReleaseRules } from '../release/releases';
import { ConfigReader, shortJson, type ConfigProblem, type RawObject } from './configReader';
import { ignoredKeys, releaseDefaults } from './defaults';
import type { BatchingMode, ContextPruneConfig, PruneOn, SummarizerThinking } from './types';
import { isPlainObject } from '../../base/plainObject';

export type { ConfigProblem } from './configReader';

export const PRUNE_ON_VALUES: readonly PruneOn[] = ['agent-message', 'on-demand'];
export const BATCHING_MODE_VALUES: readonly BatchingMode[] = ['turn', 'agent-message'];
export const SUMMARIZER_THINKING_VALUES: readonly SummarizerThinking[] = ['default', 'off', 'minimal', 'low', 'medium', 'high', 'xhigh'];

export interface ResolvedConfig {
	readonly config: ContextPruneConfig;
	readonly problems: readonly ConfigProblem[];
	/** Keys present in the file that this release does not read. */
	readonly ignored: readonly string[];
}

/**
 * @example
 * resolveConfig({ chainCompression: { rollingWindow: 5 }, minBatchChars: -1 }, releaseRules('2.9.1'))
 * // config.chainCompression = { enabled: true, rollingWindow: 5, stripFinalAssistantThinking: true, fuseRangeSummary: true }
 * // config.minBatchChars = 1000, problems = [{ key: 'minBatchChars', value: '-1', reason: 'expected a whole number ≥ 0', used: '1000' }]
 */
export function resolveConfig(raw: unknown, rules: ReleaseRules): ResolvedConfig {
	const problems: ConfigProblem[] = [];
	let source: RawObject = {};
	if (isPlainObject(raw)) {
		source = raw;
	} else if (raw !== undefined) {
		problems.push({ key: '', value: shortJson(raw), reason: 'expected an object', used: 'the defaults' });
	}
	const r = new ConfigReader<ContextPruneConfig>(source, releaseDefaults(rules), '', problems);
	const ignored = ignoredKeys(rules).filter((key) => r.ignore(key));
	const config: ContextPruneConfig = {
		enabled: r.boolean('enabled'),
		showPruneStatusLine: r.boolean('showPruneStatusLine'),
		summarizerModel: r.model('summarizerModel'),
		summarizerThinking: r.choice('summarizerThinking', SUMMARIZER_THINKING_VALUES),
		pruneOn: r.choice('pruneOn', PRUNE_ON_VALUES),
		batchingMode: r.choice('batchingMode', BATCHING_MODE_VALUES),
		quietOversizedSkips: r.boolean('quietOversizedSkips'),
		minBatchChars: r.count('minBatchChars', 0),
		protectedTools: r.strings('protectedTools'),
		protectedPaths: r.strings('protectedPaths'),
		chainCompression: r.block('chainCompression', (b) => ({
			enabled: b.boolean('enabled'),
			rollingWindow: b.count('rollingWindow', 0),
			stripFinalAssistantThinking: b.boolean('stripFinalAssistantThinking'),
			fuseRangeSummary: b.boolean('fuseRangeSummary'),
		})),
		purgeErrors: r.block('purgeErrors', (b) => ({
			enabled: b.boolean('enabled'),
			cooldownTurns: b.count('cooldownTurns', 0),
			minArgChars: b.count('minArgChars', 0),
		})),
		...(rules.thinkingStrip === 'none' ? {} : {
			thinkingStrip: r.block('thinkingStrip', (b) => ({
				enabled: b.boolean('enabled'),
				// 0 is accepted here; the strip clamps it to 1 when applied, as pi-condense does.
				keepLastTurns: b.count('keepLastTurns', 0),
			})),
		}),
		dedupByContentHash: r.boolean('dedupByContentHash'),
		autoBudgetThreshold: r.fraction('autoBudgetThreshold'),
		spillThreshold: r.count('spillThreshold', 1),
		spillPreviewBytes: r.count('spillPreviewBytes', 0),
		budgetTurnDelta: r.fraction('budgetTurnDelta'),
		...(rules.recoveryGrace ? { recoveryGraceTurns: r.floored('recoveryGraceTurns') } : {}),
		...(rules.summarizerTimeouts ? {
			summarizerIdleTimeoutMs: r.floored('summarizerIdleTimeoutMs'),
			summarizerMaxTimeoutMs: r.floored('summarizerMaxTimeoutMs'),
		} : {}),
	};
	return { config: r.withUnknownKeys(config), problems, ignored };
}

/** One line for a log or a notification, e.g. `contextPrune.minBatchChars: -1 (expected …); using 1000`. */
export function describeConfigProblem(problem: ConfigProblem): string {
	const key = problem.key === '' ? 'contextPrune' : `contextPrune.${problem.key}`;
	return `${key}: ${problem.value} (${problem.reason}); using ${problem.used}`;
}
