/**
 * The bar under the toolbar that says what is pending in the session and offers to act on it: the
 * batches waiting, what Summarize now would do with them and take off the context (a dry run of the
 * flush, labelled as an estimate with what it assumes; the confirmation's words), the chains left
 * for `compact`, and the two buttons, Summarize now and Compact. A button that cannot act now is disabled and says why. Both go to the host, which asks
 * for confirmation as the commands do.
 */
import type { PageAction, PageSnapshot } from '../src/shared/protocol';
import { el, figure, icon } from './dom';

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
			// The confirmation's sentences, in its order (the host's engine words them: one copy).
			const estimate = pending && !pending.estimating ? pending : undefined;
			summary.replaceChildren(...(pending ? [
				icon('watch'),
				el('span', { text: ' ' }),
				figure('pending', pending.pendingText, pending.batches),
				...(estimate ? [
					el('span', { text: ' · Summarize now would reclaim ' }),
					figure('pending.estimate', estimate.reclaimText, estimate.reclaimTokens, 'figure strong'),
					el('span', { text: ` (${estimate.changeText})` }),
				] : [el('span', { text: ' · working out what Summarize now would do…' })]),
			] : [icon('pass'), el('span', { text: ' ' }), figure('pending', 'Nothing pending', 0)]));
			note.replaceChildren(...(estimate ? [el('div', {}, [figure('pending.plan', `${estimate.planText}.`)]), el('div', {}, [figure('pending.note', estimate.basisText)])] : []));
			note.hidden = !estimate;
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
