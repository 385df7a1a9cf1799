/**
 * The usage Pi recorded for a live session's last reply, as it arrives in the file, and the countdown
 * of the provider's cache from its last use: what the Last sent panel shows beside the request. From
 * the session's costs ledger (`CostsLedger.lastUse`), so the figures are the ones the Costs panel and
 * the status tooltip read. Pure.
 */
import type { CacheClock } from '../../base/cacheCountdown';
import { formatCompactCount } from '../../base/numberFormat';
import type { CacheLifetimeRule, LastUse } from '../costs';
import { usd } from '../costs';

export interface LastUsageView {
	/** `anthropic/claude-sonnet-4-5: 182.3k context (150.0k read from the cache, 20.0k written to it, 12.3k new) · 1.2k output · $0.0540`. */
	readonly text: string;
	/** False while Pi's reply to the request shown has not reached the file: the usage is of the reply before it. */
	readonly ofShownRequest: boolean;
	readonly clock: CacheClock;
}

const LIFETIME_NAMES: Readonly<Record<CacheLifetimeRule, string>> = {
	'anthropic-5m': 'Anthropic: 5 minutes',
	'anthropic-1h': 'Anthropic: 1 hour, as the request asked',
	'openai': 'OpenAI: 5–10 minutes idle',
	'google': 'Google: 5–60 minutes',
	'unknown': 'an unknown provider: 5–10 minutes assumed',
};

/**
 * `leafIndex`: the index of the entry that was the session's leaf when Pi sent the request shown (its reply
 * comes after it); undefined when that entry is not in the file yet.
 */
export function lastUsageView(use: LastUse | undefined, leafIndex: number | undefined): LastUsageView | undefined {
	if (use === undefined) {
		return undefined;
	}
	const { touch, lifetime, reply } = use;
	const clock: CacheClock = { warmUntil: touch.at + lifetime.likelyMs, surelyUntil: touch.at + lifetime.surelyMs, lifetime: LIFETIME_NAMES[lifetime.rule] };
	if (reply === undefined) {
		return { text: 'no reply has recorded its usage yet', ofShownRequest: false, clock };
	}
	const { tokens } = reply;
	const model = reply.provider === '' ? reply.model : `${reply.provider}/${reply.model}`;
	const text = `${model}: ${formatCompactCount(reply.contextTokens)} context (${formatCompactCount(tokens.cacheRead)} read from the cache, `
		+ `${formatCompactCount(tokens.cacheWrite)} written to it, ${formatCompactCount(tokens.input)} new) · ${formatCompactCount(tokens.output)} output`
		+ `${reply.cost.total > 0 ? ` · ${usd(reply.cost.total)}` : ''}`;
	return { text, ofShownRequest: leafIndex !== undefined && reply.entryIndex > leafIndex, clock };
}
