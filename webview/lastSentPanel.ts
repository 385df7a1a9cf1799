/**
 * "Last sent": what the Pi holding this session really sent on its last model request (seen by our
 * bridge in Pi), checked against what this preview predicts for that point: "matches the last
 * request", or each difference. A button opens its system messages, messages and payload written for
 * reading; another, once VS Code keeps the request before it, compares the two in VS Code's diff
 * editor. Shown only for a live session, with the usage Pi recorded for its reply and the countdown of
 * the provider's cache from its last use. Everything from the bridge is set as text.
 */
import { cacheCountdownText } from '../src/base/cacheCountdown';
import type { LastSentView } from '../src/shared/protocol';
import { el, figure, icon } from './dom';
import { chars } from './format';
import type { HostChannel } from './hostChannel';

const ICONS: Readonly<Record<LastSentView['comparison'], string>> = { match: 'pass', differs: 'warning', 'not-comparable': 'info', pending: 'sync' };

export function lastSentPanel(view: LastSentView, onOpen: () => void, onCompare: () => void): HTMLElement {
	const open = el('vscode-button', { text: 'Open request', attrs: { secondary: '', icon: 'go-to-file' }, data: { control: 'open-last-sent' }, title: 'The system messages, messages and provider payload of this request, written for reading, as a read-only document' });
	open.addEventListener('click', onOpen);
	const compare = view.previousSeq === undefined ? null : el('vscode-button', {
		text: 'Compare with previous', attrs: { secondary: '', icon: 'diff' }, data: { control: 'compare-requests' },
		title: `Request ${view.previousSeq} and request ${view.seq} side by side in VS Code's diff editor: where they first differ is where the provider's prompt cache breaks`,
	});
	compare?.addEventListener('click', onCompare);
	const sizes = [
		`${view.messages} message${view.messages === 1 ? '' : 's'}`,
		...(view.systemChars === undefined ? [] : [`system ${chars(view.systemChars)}`]),
		...(view.payloadChars === undefined ? [] : [`payload ${chars(view.payloadChars)}`]),
	].join(' · ');
	const parts: (HTMLElement | null)[] = [
		el('h2', { text: 'Last sent' }),
		el('div', { className: 'sub' }, [
			icon('radio-tower'),
			el('span', { text: ` ${view.pi} · request ${view.seq} · ${new Date(view.at).toLocaleTimeString()}${view.model ? ` · ${view.model}` : ''}` }),
		]),
		el('div', { className: `last-sent-check ${view.comparison}`, attrs: { role: 'status' } }, [
			icon(ICONS[view.comparison]),
			el('span', { text: ' ' }),
			figure('lastSent.summary', view.summary),
			figure('lastSent.comparison', view.comparison, undefined, 'hidden-figure'),
		]),
		view.differences.length > 0 ? el('ul', { className: 'last-sent-differences' }, view.differences.map((text) => el('li', { text }))) : null,
		view.orderWarning === undefined ? null : el('p', { className: 'note', text: view.orderWarning }),
		view.releaseWarning === undefined ? null : el('p', { className: 'note', text: view.releaseWarning }),
		el('div', { className: 'sub' }, [figure('lastSent.messages', sizes, view.messages)]),
		view.usage === undefined ? null : usageLines(view.usage),
		el('div', { className: 'last-sent-actions' }, compare ? [open, compare] : [open]),
	];
	return el('section', { className: 'panel last-sent', attrs: { 'aria-label': 'Last request sent by Pi' } }, parts);
}

/** The usage Pi recorded for its last reply, and the cache's countdown, ticked every second while shown. */
function usageLines(usage: NonNullable<LastSentView['usage']>): HTMLElement {
	const countdown = el('span', { text: cacheCountdownText(usage.clock, Date.now()) });
	// Not a live region: a screen reader would hear it every second. Its text is read when reached.
	stopTicking = tick(() => {
		countdown.textContent = cacheCountdownText(usage.clock, Date.now());
	});
	return el('div', { className: 'last-sent-usage' }, [
		el('div', {}, [
			icon('pulse'),
			el('span', { text: ` ${usage.ofShownRequest ? 'Its reply' : 'The reply before it (this one\'s has not reached the file yet)'}: ` }),
			figure('lastSent.usage', usage.text),
		]),
		el('div', {}, [icon('watch'), el('span', { text: ' ' }), countdown]),
	]);
}

/** Stops the countdown of the panel shown last. */
let stopTicking: () => void = () => undefined;

function tick(update: () => void): () => void {
	const timer = setInterval(update, 1000);
	return () => clearInterval(timer);
}

/** Shows the panel in its place in the side column (or hides it: no live Pi holds the session), then `rendered`. */
export function showLastSent(container: HTMLElement, view: LastSentView | undefined, host: HostChannel, rendered: () => void): void {
	stopTicking();
	stopTicking = () => undefined;
	container.hidden = view === undefined;
	container.replaceChildren(...(view ? [lastSentPanel(view, () => host.post({ type: 'openLastSent' }), () => host.post({ type: 'compareRequests' }))] : []));
	rendered();
}
