/**
 * The messages of the `/pruner` subcommands, as the VS Code commands show them: on/off carry
 * pi-condense's exact notices, stats is pi-condense's `statsText`, the rest say the same things in
 * words that fit VS Code's notifications. Pure.
 */
import { statsText } from '../condense/tree/statsText';
import { BATCHING_MODES, PRUNE_ON_MODES, SUMMARIZER_THINKING_LEVELS } from '../config/presets';
import { contextBlockLines } from '../metrics/contextBlock';
import type { ContextMetrics } from '../metrics/contextMetrics';
import type { ReleaseRules } from '../release/releases';
import type { ContextPruneConfig } from '../config/types';
import type { SummarizerStats } from '../condense/types';

export const ENABLED_TEXT = 'Context pruning enabled.';
export const DISABLED_TEXT = 'Context pruning disabled.';

function labelOf<T>(choices: readonly { readonly value: T; readonly label: string }[], value: T): string {
	return choices.find((choice) => choice.value === value)?.label ?? String(value);
}

export function modelLabel(model: string): string {
	return model === 'default' ? 'default (the session\'s model)' : model;
}

function thinkingLabel(config: Pick<ContextPruneConfig, 'summarizerThinking'>): string {
	return `${labelOf(SUMMARIZER_THINKING_LEVELS, config.summarizerThinking)} (${config.summarizerThinking})`;
}

function pruneOnLabel(config: Pick<ContextPruneConfig, 'pruneOn'>): string {
	return labelOf(PRUNE_ON_MODES, config.pruneOn);
}

function batchingLabel(config: Pick<ContextPruneConfig, 'batchingMode'>): string {
	return labelOf(BATCHING_MODES, config.batchingMode);
}

/** The session's context metrics for `/pruner status` (2.7.0+), with the reload-rearm flag. */
export interface StatusContext {
	readonly metrics: ContextMetrics | undefined;
	readonly rearmed: boolean;
}

/**
 * `/pruner status`: the settings that matter, then the summarizer's usage in this session, then
 * (2.7.0+, when a session gives metrics) the release's `--- context ---` block, byte-exact.
 */
export function statusReportText(config: ContextPruneConfig, stats: SummarizerStats | undefined, rules: ReleaseRules, context?: StatusContext): string {
	const lines = [
		'pruner status:',
		`  enabled:     ${config.enabled ? 'yes' : 'no'}`,
		`  model:       ${modelLabel(config.summarizerModel)}`,
		`  thinking:    ${thinkingLabel(config)}`,
		// 2.4.0+: the summarizer's timeouts, right after the thinking level.
		...(rules.summarizerTimeouts ? [`  idle to:  ${timeoutLabel(config.summarizerIdleTimeoutMs)}`, `  max to:   ${timeoutLabel(config.summarizerMaxTimeoutMs)}`] : []),
		`  trigger:     ${pruneOnLabel(config)}`,
		`  batching:    ${batchingLabel(config)}`,
		`  dedup:       ${config.dedupByContentHash ? 'on' : 'off'}`,
		`  status line: ${config.showPruneStatusLine ? 'on' : 'off'}`,
		'--- summarizer ---',
	];
	const usage = statsText(stats);
	lines.push(usage.startsWith('pruner stats: no') ? '(no summarizer calls yet)' : usage.split('\n').slice(1).join('\n'));
	if (rules.flushMetrics && context?.metrics) {
		lines.push(...contextBlockLines(context.metrics, context.rearmed));
	}
	return lines.join('\n');
}

/** `disabled` for 0, else whole seconds (`20s`). */
function timeoutLabel(ms: number | undefined): string {
	return !ms ? 'disabled' : `${Math.round(ms / 1000)}s`;
}

/** The status in one line, for a notification. */
export function modelText(config: ContextPruneConfig): string {
	return `Summarizer model: ${modelLabel(config.summarizerModel)} · thinking: ${thinkingLabel(config)}`;
}

export function modelSetText(model: string, thinking: string | undefined): string {
	return `Summarizer model set to ${modelLabel(model)}${thinking ? ` with thinking ${thinking}` : ''}.`;
}

export function thinkingSetText(level: string): string {
	return `Summarizer thinking set to ${level}.`;
}

export function pruneOnSetText(config: Pick<ContextPruneConfig, 'pruneOn'>): string {
	return config.pruneOn === 'on-demand'
		? 'Prune trigger: on demand (only when you run Flush Pending Batches Now).'
		: 'Prune trigger: on agent message (pending batches are summarized when the agent replies).';
}

export function batchingSetText(config: Pick<ContextPruneConfig, 'batchingMode'>): string {
	return config.batchingMode === 'turn'
		? 'Batching: per turn (one summary per assistant turn).'
		: 'Batching: per agent message (every turn between two user messages in one summary).';
}

export function dedupStatusText(enabled: boolean): string {
	return `Dedup by content hash is ${enabled ? 'ON' : 'OFF'}. `
		+ 'When on, a tool result with the same tool and the same text as one already summarized becomes an alias of it: no second summary, no LLM call.';
}

export function minBatchCharsText(value: number): string {
	return value === 0
		? 'Min batch chars: 0 (every batch is summarized, however small).'
		: `Min batch chars: ${value} (batches with fewer result characters are skipped, not summarized).`;
}

export function protectedListText(kind: 'tools' | 'paths', list: readonly string[]): string {
	const what = kind === 'tools' ? 'Protected tools' : 'Protected paths';
	return list.length === 0 ? `${what}: none.` : `${what}: ${list.join(', ')}.`;
}

/** `/pruner recovery-grace` with no argument (2.3.0+). */
export function recoveryGraceText(turns: number): string {
	return turns === 0 ? 'Current recovery grace: disabled.' : `Current recovery grace: ${turns} user-turn-group(s).`;
}

/** `/pruner recovery-grace <n>` once saved (2.3.0+). */
export function recoveryGraceSetText(turns: number): string {
	return turns === 0
		? 'recovery-grace set to 0 - context_tree_query output stubs immediately.'
		: `recovery-grace set to ${turns} user-turn-group(s).`;
}
