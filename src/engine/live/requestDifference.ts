/**
 * Where two requests of one Pi first differ, read from their written messages (what the diff
 * editor shows, so the two always agree): the system messages, a message, or nowhere but the
 * messages added at the end. A provider's prompt cache serves the longest unchanged start of a
 * request, so the first difference is where the cache breaks. Pure.
 */
import type { WrittenRequest } from './requestDocument';

export type RequestDifference =
	/** The same system messages and messages. */
	| { readonly kind: 'same'; readonly messages: number }
	/** The newer request repeats every message of the older one and adds some after them. */
	| { readonly kind: 'appended'; readonly kept: number; readonly added: number }
	| { readonly kind: 'system' }
	/** `index` is 0-based; `label` what the newer request has there (or the older one, when the newer ends before it). */
	| { readonly kind: 'message'; readonly index: number; readonly label: string };

export function requestDifference(older: WrittenRequest, newer: WrittenRequest): RequestDifference {
	if (older.system !== newer.system) {
		return { kind: 'system' };
	}
	const shorter = Math.min(older.messages.length, newer.messages.length);
	for (let i = 0; i < shorter; i++) {
		const before = older.messages[i];
		const after = newer.messages[i];
		if (before?.text !== after?.text || before?.label !== after?.label) {
			return { kind: 'message', index: i, label: after?.label ?? '?' };
		}
	}
	if (newer.messages.length > older.messages.length) {
		return { kind: 'appended', kept: older.messages.length, added: newer.messages.length - older.messages.length };
	}
	if (newer.messages.length < older.messages.length) {
		return { kind: 'message', index: shorter, label: `${older.messages[shorter]?.label ?? '?'}, gone` };
	}
	return { kind: 'same', messages: shorter };
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The diff editor's title: `Pi 4242: request 3 ↔ 4 · first difference at message 7 (toolResult · bash)`. */
export function differenceTitle(pid: number, olderSeq: number, newerSeq: number, difference: RequestDifference): string {
	const where = ((): string => {
		switch (difference.kind) {
			case 'same':
				return `the same ${plural(difference.messages, 'message')}`;
			case 'appended':
				return `the same first ${plural(difference.kept, 'message')}, ${difference.added} added after them`;
			case 'system':
				return 'first difference in the system messages';
			case 'message':
				return `first difference at message ${difference.index + 1} (${difference.label})`;
		}
	})();
	return `Pi ${pid}: request ${olderSeq} ↔ ${newerSeq} · ${where}`;
}
