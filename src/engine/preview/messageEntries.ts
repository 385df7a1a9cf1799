/**
 * Which session entry each message of Pi's context came from, so the preview can name entries and
 * reveal a message by entry id. Pure.
 *
 * Pi builds the context by walking the branch in order (skipping what a compaction cut), so one
 * forward pass pairs them: a `message` entry gives its own message object, a `custom_message` or
 * `branch_summary` entry a new object with its fields, and a compaction summary comes from the
 * last compaction on the branch. Every entry type is named in `produces` (no `default:`): a new type
 * does not compile until it says which messages it gives.
 */
import { unreachable } from '../../base/unreachable';
import type { ContextMessage, SessionEntry } from '../session/types';
import { paced, type Steps } from '../steps';

export function* messageEntryIdsSteps(branch: readonly SessionEntry[], messages: readonly ContextMessage[]): Steps<(string | undefined)[]> {
	const ids: (string | undefined)[] = new Array<string | undefined>(messages.length).fill(undefined);
	let at = 0;
	for (let i = 0; i < messages.length; i++) {
		if (paced(i)) {
			yield;
		}
		const message = messages[i] as ContextMessage;
		if (message.role === 'compactionSummary') {
			ids[i] = lastCompactionId(branch);
			continue;
		}
		for (let probe = at; probe < branch.length; probe++) {
			if (produces(branch[probe] as SessionEntry, message)) {
				ids[i] = branch[probe]?.id;
				at = probe + 1;
				break;
			}
		}
	}
	return ids;
}

function produces(entry: SessionEntry, message: ContextMessage): boolean {
	switch (entry.type) {
		case 'message':
			return entry.message === message;
		case 'custom_message':
			return message.role === 'custom' && message.customType === entry.customType && message.content === entry.content;
		case 'branch_summary':
			return message.role === 'branchSummary' && message.fromId === entry.fromId && message.summary === entry.summary;
		// A compaction's messages are paired apart (the last compaction of the branch); these give none.
		case 'compaction':
		case 'model_change':
		case 'thinking_level_change':
		case 'context_edit':
		case 'usage':
		case 'custom':
		case 'label':
		case 'session_info':
		case 'opaque':
			return false;
	}
	return unreachable(entry);
}

function lastCompactionId(branch: readonly SessionEntry[]): string | undefined {
	for (let i = branch.length - 1; i >= 0; i--) {
		if (branch[i]?.type === 'compaction') {
			return branch[i]?.id;
		}
	}
	return undefined;
}
