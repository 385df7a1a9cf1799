/**
 * The words of the confirmation before Summarize Now and Compact (what will be written, to which
 * session, from which model, or that there is no key and summaries would be offline) and of the
 * toast after them (what was done and how). No `vscode`: the unit tests read these texts.
 */
import type { FlushMode } from '../../engine/flush';
import type { FlushEstimate, SentChange } from '../../engine/preview';
import { basisText, changeText, estimateVersusResult, pendingText, planText, reclaimText } from '../../engine/views';
import type { SummarizerPlan } from '../../node/llm/summarizerPlan';

/** What a flush about to run will do, as far as it can be known before it runs. */
export interface PruneFacts {
	readonly mode: FlushMode;
	readonly title: string;
	/** The selected release, e.g. `2.9.1`. */
	readonly release: string;
	/** A dry run of the flush: what it would summarize, skip and compress, and reclaim. */
	readonly estimate: FlushEstimate;
	readonly rollingWindow: number;
	readonly summarizer: SummarizerPlan;
	/** What pruning now does to the provider's cache ('' when unknown): `cache warm for 3 more minutes…`. */
	readonly cache?: string;
}

/** Each button names what it does: with the model, or offline (extractive summaries, no LLM call). */
export const CONFIRM_SUMMARIZE = 'Summarize';
export const CONFIRM_COMPACT = 'Compact';
export const SUMMARIZE_OFFLINE = 'Summarize offline';
export const COMPACT_OFFLINE = 'Compact offline';
export const SET_UP_KEY = 'Set up a key…';
/** The buttons that go ahead. */
export const GO_AHEAD: readonly string[] = [CONFIRM_SUMMARIZE, CONFIRM_COMPACT, SUMMARIZE_OFFLINE, COMPACT_OFFLINE];

export interface Confirmation {
	readonly message: string;
	readonly detail: string;
	/** The buttons, in order (Cancel is VS Code's own). */
	readonly actions: readonly string[];
	/** Whether the flush would write summaries without a model (the user chooses that explicitly). */
	readonly offline: boolean;
}

export function confirmation(facts: PruneFacts): Confirmation {
	const plan = facts.summarizer;
	const lines = facts.mode === 'now' ? nowLines(facts) : compactLines(facts);
	if (facts.cache) {
		lines.push(cacheLine(facts.cache));
	}
	lines.push(summarizerLine(plan, facts.mode));
	lines.push('The entries are appended to the session file as pi-condense writes them; Undo Last Prune removes them again as long as nothing was written after them.');
	const noKey = plan.kind === 'offline' && plan.provider !== undefined;
	const offline = facts.mode === 'now' ? SUMMARIZE_OFFLINE : COMPACT_OFFLINE;
	const actions = plan.kind === 'no-credentials' ? [SET_UP_KEY]
		: noKey ? [SET_UP_KEY, offline]
			: plan.kind === 'offline' ? [offline]
				: [facts.mode === 'now' ? CONFIRM_SUMMARIZE : CONFIRM_COMPACT];
	const what = facts.mode === 'now'
		? `Summarize the ${plural(facts.estimate.batches, 'pending batch', 'pending batches')} of "${facts.title}"?`
		: `Compact the closed chains of "${facts.title}"?`;
	return { message: what, detail: lines.join('\n\n'), actions, offline: plan.kind === 'offline' };
}

/** The cache line, with what waiting would cost instead when the cache is still warm. */
function cacheLine(cache: string): string {
	const text = `${cache.charAt(0).toUpperCase()}${cache.slice(1)}`;
	return cache.startsWith('cache warm') ? `${text}; once it expires, pruning costs no extra cache write.` : `${text}.`;
}

/** The pending bar's sentences, in its order: what is pending, what the flush would do, what it would reclaim, how that was worked out. */
function nowLines({ estimate, release }: PruneFacts): string[] {
	if (estimate.batches === 0) {
		return ['Nothing is pending: pi-condense would stop at "nothing pending".'];
	}
	return [`${pendingText(estimate)}.`, `${planText(estimate)}.`, reclaimLine(estimate), basisText(estimate, release)];
}

function compactLines({ estimate, release }: PruneFacts): string[] {
	if (estimate.compressedChains === 0) {
		return ['No closed chain is eligible now: compact would write nothing.'];
	}
	return [`${planText(estimate)} (the rolling window is ignored, as /pruner compact ignores it).`, reclaimLine(estimate), basisText(estimate, release)];
}

function reclaimLine(estimate: FlushEstimate): string {
	return `${estimate.mode === 'now' ? 'Summarize now' : 'Compact'} would reclaim ${reclaimText(estimate)} (${changeText(estimate)}).`;
}

function summarizerLine(plan: SummarizerPlan, mode: FlushMode): string {
	const uses = mode === 'now' ? 'Summaries by' : 'Chains covered by two or more summaries are fused by';
	switch (plan.kind) {
		case 'model':
			return `${uses} ${plan.model}${plan.sessionModel ? ' (the session\'s model)' : ''}, key from ${plan.credential}.`;
		case 'offline':
			return plan.provider !== undefined
				? `No key for ${plan.model ?? plan.provider}${plan.envVars.length > 0 ? ` (${plan.envVars.join(' or ')} is not set, and auth.json has none)` : ''}: summaries will be extractive, offline, with no LLM call.`
				: `Summaries will be extractive, offline, with no LLM call: ${plan.reason}.`;
		case 'no-credentials':
			return `No key for ${plan.model} (contextPrune.summarizerModel)${plan.envVars.length > 0 ? `: set ${plan.envVars.join(' or ')}, or store one` : ''}. Its calls would fail, and nothing is summarized offline in place of a model you chose.`;
		case 'unchecked':
			return `${uses} ${plan.model}; it could not be checked beforehand (${plan.reason}).`;
	}
}

/**
 * The toast after a flush that wrote: what was done, how, and what it did to the request the model
 * is sent, beside the estimate the confirmation or the preview gave before it.
 */
export function resultText(account: string, title: string, sent: SentChange | undefined, estimate: FlushEstimate | undefined): string {
	const figures = sent ? ` ${capitalized(estimateVersusResult(estimate, sent))}.` : '';
	return `Pi Condense, "${title}": ${account}${figures}`;
}

function capitalized(text: string): string {
	return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}

/** How the summaries of a flush were written, for the account: by which model, or offline and why. */
export function howSummarized(label: string | undefined, offlineReason: string | undefined): string {
	if (offlineReason !== undefined) {
		return `offline (extractive, no LLM call: ${offlineReason})`;
	}
	return label ? `with ${label}` : '';
}

function plural(n: number, one: string, many = `${one}s`): string {
	return `${n.toLocaleString('en')} ${n === 1 ? one : many}`;
}
