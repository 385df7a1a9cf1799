/**
 * Checks the messages Pi really sent (the bridge's digest of its last request) against what the
 * preview predicts for that point of the session: either they match, or the differences, message by
 * message. A difference is a defect of our engine (or a pi-condense we do not follow), so it is
 * listed plainly. Pure.
 */
import type { LoadOrder, MessageDigest, SentDigest } from './liveTypes';

export type SentComparison =
	| { readonly kind: 'match'; readonly messages: number }
	| { readonly kind: 'differs'; readonly differences: readonly string[] }
	/** The bridge could not see what was sent, so nothing is compared. */
	| { readonly kind: 'not-comparable'; readonly reason: string };

/** Differences listed one by one; the rest are counted. */
export const LISTED_DIFFERENCES = 12;

export const MATCH_TEXT = 'matches the last request';

export function compareSent(sent: SentDigest, order: LoadOrder, predicted: readonly MessageDigest[]): SentComparison {
	if (order === 'before-pi-condense') {
		return { kind: 'not-comparable', reason: 'the bridge loads before pi-condense in Pi, so it saw the context before pruning; run "Pi Condense: Connect Pi to VS Code" again to put it last, then restart Pi' };
	}
	if (sent.changedAfterBridge > 0) {
		return { kind: 'not-comparable', reason: `an extension Pi loads after the bridge changed ${sent.changedAfterBridge} message(s) of this request, so the bridge did not see what was sent` };
	}
	const differences: string[] = [];
	let unlisted = 0;
	const note = (text: string): void => {
		if (differences.length < LISTED_DIFFERENCES) {
			differences.push(text);
		} else {
			unlisted++;
		}
	};
	const common = Math.min(sent.messages.length, predicted.length);
	for (let i = 0; i < common; i++) {
		const real = sent.messages[i] as MessageDigest;
		const ours = predicted[i] as MessageDigest;
		if (real.hash !== ours.hash) {
			note(describe(i, real, ours));
		}
	}
	if (sent.messages.length !== predicted.length) {
		const extra = sent.messages.length > predicted.length;
		const more = (extra ? sent.messages : predicted).slice(common);
		note(`Pi sent ${sent.messages.length} message(s), the preview has ${predicted.length}: ${extra ? 'not predicted' : 'not sent'}: ${more.slice(0, 5).map((m, i) => `${common + i + 1} (${m.role})`).join(', ')}${more.length > 5 ? ', …' : ''}`);
	}
	if (differences.length === 0) {
		return { kind: 'match', messages: sent.messages.length };
	}
	if (unlisted > 0) {
		differences.push(`and ${unlisted} more difference(s)`);
	}
	return { kind: 'differs', differences };
}

function describe(index: number, real: MessageDigest, ours: MessageDigest): string {
	const where = `message ${index + 1}`;
	if (real.role !== ours.role) {
		return `${where}: Pi sent a ${real.role} message, the preview has a ${ours.role} message`;
	}
	return real.chars === ours.chars
		? `${where} (${real.role}): same size (${real.chars} characters), different content`
		: `${where} (${real.role}): Pi sent ${real.chars} characters, the preview has ${ours.chars}`;
}

/** The comparison in one line, for the log and the page. */
export function comparisonSummary(comparison: SentComparison): string {
	switch (comparison.kind) {
		case 'match':
			return `${MATCH_TEXT} (${comparison.messages} messages)`;
		case 'differs':
			return `differs from the last request: ${comparison.differences.join('; ')}`;
		case 'not-comparable':
			return `not compared: ${comparison.reason}`;
	}
}
