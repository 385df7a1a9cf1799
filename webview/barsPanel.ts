/**
 * Token bars by category, before and after pruning, with the reclaim figure and the last call's
 * real usage as Pi recorded it.
 */
import type { PageSnapshot } from '../src/shared/protocol';
import { el, figure } from './dom';
import { tokens, usd } from './format';
import { CONVERSATION_MEASURE, REQUEST_MEASURE } from '../src/base/reclaimMeasureNames';

export function barsPanel(snapshot: PageSnapshot): HTMLElement {
	const { totals } = snapshot;
	const max = Math.max(1, ...snapshot.bars.map((bar) => Math.max(bar.beforeTokens, bar.afterTokens)));
	const rows = snapshot.bars.filter((bar) => bar.beforeTokens > 0 || bar.afterTokens > 0).map((bar) => el('div', { className: 'bar-row' }, [
		el('span', { className: 'bar-label', text: bar.label }),
		el('span', { className: 'bar-track' }, [barFill('before', bar.beforeTokens, max), barFill('after', bar.afterTokens, max)]),
		el('span', { className: 'bar-values' }, [
			figure(`bar.${bar.category}.before`, tokens(bar.beforeTokens), bar.beforeTokens),
			el('span', { text: ' → ' }),
			figure(`bar.${bar.category}.after`, tokens(bar.afterTokens), bar.afterTokens),
		]),
	]));
	return el('section', { className: 'panel bars', attrs: { 'aria-label': 'Tokens by category' } }, [
		el('h2', { text: 'Tokens by category' }),
		// The two measures every surface shows, named, in this order (src/engine/views/reclaimFigures.ts).
		el('div', { className: 'headline' }, [
			el('span', { className: 'measure-name', text: `${CONVERSATION_MEASURE}: ` }),
			figure('conversation.before', tokens(totals.conversation.beforeTokens), totals.conversation.beforeTokens, 'big'),
			el('span', { text: ' → ' }),
			figure('conversation.after', tokens(totals.conversation.afterTokens), totals.conversation.afterTokens, 'big'),
			el('span', { text: ' tokens · ' }),
			figure('conversation.percent', `${totals.conversation.percent}%`, totals.conversation.percent, 'big good'),
			el('span', { text: ' less' }),
		]),
		el('div', { className: 'headline second' }, [
			el('span', { className: 'measure-name', text: `${REQUEST_MEASURE}: ` }),
			figure('totals.before', tokens(totals.beforeTokens), totals.beforeTokens),
			el('span', { text: ' → ' }),
			figure('totals.after', tokens(totals.afterTokens), totals.afterTokens),
			el('span', { text: ' tokens · ' }),
			figure('totals.percent', `${totals.reclaimPercent}%`, totals.reclaimPercent),
			el('span', { text: ' less, ' }),
			figure('totals.reclaimed', tokens(totals.reclaimedTokens), totals.reclaimedTokens),
			el('span', { text: ' tokens reclaimed' }),
		]),
		el('div', { className: 'sub' }, [
			figure('messages.before', String(totals.beforeMessages), totals.beforeMessages),
			// Not the session list's count (message entries in the file, every branch): the messages of the active branch as Pi sends them.
			el('span', { text: ' messages in Pi\'s context (this branch, with summaries) → ', title: 'The messages Pi builds for the model from the active branch. The session list counts message entries in the file, on every branch, as Pi\'s own session list does.' }),
			figure('messages.after', String(totals.afterMessages), totals.afterMessages),
			el('span', { text: ' sent' }),
		]),
		el('div', { className: 'legend' }, [el('span', { className: 'swatch before' }), el('span', { text: ' before pruning  ' }), el('span', { className: 'swatch after' }), el('span', { text: ' sent' })]),
		...rows,
		el('p', { className: 'note', text: 'Estimated as pi-condense does: serialized characters / 4.' }),
		usagePart(snapshot),
		diagnosticsPart(snapshot.diagnostics),
	]);
}

/** What the render could not do (a chain whose range did not resolve, an orphan removed…). */
function diagnosticsPart(diagnostics: readonly string[]): HTMLElement | null {
	if (diagnostics.length === 0) {
		return null;
	}
	return el('div', { className: 'diagnostics' }, [
		el('h3', { text: `Diagnostics (${diagnostics.length})` }),
		el('ul', {}, diagnostics.slice(0, 50).map((text) => el('li', { text }))),
	]);
}

function barFill(which: 'before' | 'after', value: number, max: number): HTMLElement {
	const fill = el('span', { className: `bar-fill ${which}` });
	// CSSOM writes are allowed by the page's CSP (no inline style attributes are).
	fill.style.width = `${Math.max(value > 0 ? 0.5 : 0, (100 * value) / max)}%`;
	return fill;
}

function usagePart(snapshot: PageSnapshot): HTMLElement {
	const usage = snapshot.usage;
	if (!usage) {
		return el('p', { className: 'note', text: 'No completed assistant reply yet: no usage recorded.' });
	}
	const prompt = usage.input + usage.cacheRead + usage.cacheWrite;
	const window = snapshot.cache.contextWindow;
	return el('div', { className: 'usage' }, [
		el('h3', { text: 'Last call (recorded by Pi)' }),
		el('div', {}, [
			el('span', { text: `${usage.provider}/${usage.model}: ` }),
			figure('usage.prompt', tokens(prompt), prompt),
			el('span', { text: ' prompt tokens (' }),
			figure('usage.input', tokens(usage.input), usage.input),
			el('span', { text: ' new, ' }),
			figure('usage.cacheRead', tokens(usage.cacheRead), usage.cacheRead),
			el('span', { text: ' cache read, ' }),
			figure('usage.cacheWrite', tokens(usage.cacheWrite), usage.cacheWrite),
			el('span', { text: ' cache write), ' }),
			figure('usage.output', tokens(usage.output), usage.output),
			el('span', { text: ' output, ' }),
			figure('usage.cost', usd(usage.costTotal), usage.costTotal),
			window ? el('span', { text: ` · ${Math.round((100 * prompt) / window)}% of a ${tokens(window)} window` }) : null,
		]),
		sessionPart(snapshot),
	]);
}

/** Pi's totals of the whole session, usage entries (cache warming…) included, as its /session counts them. */
function sessionPart(snapshot: PageSnapshot): HTMLElement | null {
	const session = snapshot.sessionUsage;
	if (!session) {
		return null;
	}
	const extra = session.usageEntries === 0 ? '' : ` (${session.usageEntries} usage entr${session.usageEntries === 1 ? 'y' : 'ies'}, such as cache warming, included)`;
	return el('div', { title: 'Every reply, tool and summary of the session file, and Pi\'s usage entries: what Pi\'s /session counts' }, [
		el('span', { text: 'Session so far: ' }),
		figure('session.tokens', tokens(session.tokens), session.tokens),
		el('span', { text: ' tokens, ' }),
		figure('session.cost', usd(session.cost), session.cost),
		el('span', { text: extra }),
	]);
}
