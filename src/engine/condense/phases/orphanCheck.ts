/**
 * The check after the four phases: the transform must not leave a tool result without its call or
 * a call without its result that Pi's own context did not already have. Pi would send an orphaned
 * result straight to the provider (an HTTP 400 from Anthropic), so a new orphan result is removed;
 * a new orphan call cannot be repaired here and is reported. Pure; returns `after` itself when
 * nothing is new.
 *
 * Pairing follows what reaches the provider: an assistant message opens its calls, the tool
 * results that follow close them, and any other message that becomes LLM input ends the group.
 */
import type { AgentMessage } from '../../session/types';
import { resultOccurrenceKey } from '../occurrence';
import { ignoreDiagnostics, type RenderReporter } from './renderDiagnostics';

interface Orphans {
	/** Indexes (in the scanned list) and keys of results without an open call. */
	readonly results: Map<number, string>;
	/** `assistantTimestamp:callId` of calls that got no result. */
	readonly calls: Set<string>;
}

export function checkOrphans(before: readonly AgentMessage[], after: readonly AgentMessage[], report: RenderReporter = ignoreDiagnostics): readonly AgentMessage[] {
	if (after === before) {
		return after;
	}
	const existing = findOrphans(before);
	const produced = findOrphans(after);
	const existingResultKeys = new Set(existing.results.values());
	for (const call of produced.calls) {
		if (!existing.calls.has(call)) {
			report({ kind: 'orphan-call', message: `tool call ${call} lost its result` });
		}
	}
	const drop = new Set<number>();
	for (const [index, key] of produced.results) {
		if (!existingResultKeys.has(key)) {
			drop.add(index);
			report({ kind: 'orphan-result', message: `tool result ${key} lost its call; removed` });
		}
	}
	return drop.size === 0 ? after : after.filter((_, i) => !drop.has(i));
}

function findOrphans(messages: readonly AgentMessage[]): Orphans {
	const orphans: Orphans = { results: new Map(), calls: new Set() };
	let open = new Map<string, string>();
	const closeGroup = (): void => {
		for (const call of open.values()) {
			orphans.calls.add(call);
		}
		open = new Map();
	};
	messages.forEach((message, i) => {
		if (message.role === 'assistant') {
			closeGroup();
			for (const block of message.content) {
				if (block.type === 'toolCall') {
					open.set(block.id, `${message.timestamp}:${block.id}`);
				}
			}
		} else if (message.role === 'toolResult') {
			if (!open.delete(message.toolCallId)) {
				orphans.results.set(i, resultOccurrenceKey(message));
			}
		} else if (!(message.role === 'bashExecution' && message.excludeFromContext === true)) {
			closeGroup();
		}
	});
	closeGroup();
	return orphans;
}
