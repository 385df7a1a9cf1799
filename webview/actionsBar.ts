/**
 * The bar under the toolbar that says what is pending in the session and offers to act on it: the
 * batches waiting, an estimate of what summarizing them would take off the context (labelled as
 * one, with what it assumes), the chains left for `compact`, and the two buttons, Summarize now and
 * Compact. A button that cannot act now is disabled and says why. Both go to the host, which asks
 * for confirmation as the commands do.
 */
import type { PageAction, PageSnapshot } from '../src/shared/protocol';
import { el, figure, icon } from './dom';
import { tokens } from './format';

export interface ActionsBar {
	readonly element: HTMLElement;
	readonly summarizeButton: HTMLElementTagNameMap['vscode-button'];
	readonly compactButton: HTMLElementTagNameMap['vscode-button'];
	update(snapshot: PageSnapshot): void;
}

export function actionsBar(): ActionsBar {
	const summary = el('div', { className: 'pending-line' });
	const note = el('div', { className: 'note pending-note' });
	const reason = el('div', { className: 'note action-reason' });
	const summarizeButton = el('vscode-button', { text: 'Summarize now', attrs: { icon: 'run-all' }, data: { control: 'summarize-now' } });
	const compactButton = el('vscode-button', { text: 'Compact', attrs: { secondary: '', icon: 'fold' }, data: { control: 'compact' } });
	const element = el('section', { className: 'actions-bar', attrs: { 'aria-label': 'Pending work' } }, [
		el('div', { className: 'pending-text' }, [summary, note, reason]),
		el('div', { className: 'buttons' }, [summarizeButton, compactButton]),
	]);
	return {
		element, summarizeButton, compactButton,
		update(snapshot: PageSnapshot): void {
			const pending = snapshot.pending;
			const afterNow = pending ? Math.max(0, snapshot.totals.afterTokens - pending.reclaimTokens) : 0;
			summary.replaceChildren(...(pending ? [
				icon('watch'),
				el('span', { text: ' ' }),
				figure('pending', `${pending.batches.toLocaleString('en')} batch${pending.batches === 1 ? '' : 'es'} pending`, pending.batches),
				el('span', { text: ` (${pending.toolCalls.toLocaleString('en')} tool call${pending.toolCalls === 1 ? '' : 's'}, ${tokens(pending.rawChars)} chars of output) · Summarize now would reclaim about ` }),
				figure('pending.estimate', `${tokens(pending.reclaimTokens)} tokens`, pending.reclaimTokens, 'figure strong'),
				el('span', { text: ` (${tokens(snapshot.totals.afterTokens)} → ${tokens(afterNow)}, estimate)` }),
			] : [icon('pass'), el('span', { text: ' ' }), figure('pending', 'Nothing pending', 0)]));
			const skipped = pending ? pending.batches - pending.summarizedBatches : 0;
			note.replaceChildren(...(pending ? [figure('pending.note', `Estimate: each result replaced by pi-condense ${snapshot.release}'s stub, summaries at ${pending.summaryPercent}% of the output `
				+ `(${pending.ratioFrom === 'session' ? 'this session\'s ratio so far' : 'a typical ratio'})${skipped > 0 ? `, ${skipped.toLocaleString('en')} batch${skipped === 1 ? '' : 'es'} below minBatchChars skipped` : ''}; chains compressed afterwards not counted.`)] : []));
			note.hidden = !pending;
			if (snapshot.compactable !== '') {
				note.hidden = false;
				note.append(el('div', {}, [figure('compactable', `${snapshot.compactable}: pi-condense compresses chains only at the end of a flush that summarizes a batch.`)]));
			}
			setAction(summarizeButton, snapshot.actions.summarize);
			setAction(compactButton, snapshot.actions.compact);
			// Said in words when there is something to summarize but the button cannot (a tooltip is not enough).
			const blocked = pending && !snapshot.actions.summarize.enabled ? snapshot.actions.summarize.reason : '';
			reason.replaceChildren(...(blocked === '' ? [] : [figure('actions.reason', blocked)]));
			reason.hidden = blocked === '';
		},
	};
}

function setAction(button: HTMLElementTagNameMap['vscode-button'], action: PageAction): void {
	button.toggleAttribute('disabled', !action.enabled);
	button.title = action.reason;
	button.setAttribute('aria-description', action.reason);
}
