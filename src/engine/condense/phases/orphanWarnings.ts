/**
 * Warnings about tool results and calls that lost their partner in what is sent. Nothing is
 * repaired here (no release repairs them): the render shows what the release sends, and these say
 * what the provider will do about it. Pure.
 *
 * Pairing follows what reaches the provider: an assistant message opens its calls, the tool results
 * that follow close them, and any other message that becomes LLM input ends the group (Pi inserts a
 * synthetic error result there for each call still open). A result with no open call is rejected by
 * the provider; a call whose result is gone is answered by Pi's synthetic "No result provided".
 */
import { isAtLeast, type ReleaseRules, type ReleaseVersion } from '../../release/releases';
import type { AgentMessage } from '../../session/types';
import { resultOccurrenceKey } from '../occurrence';
import { idList, type DefectWarning } from './renderReport';
import { paced, type Steps } from '../../steps';

interface OrphanResult {
	readonly key: string;
	readonly toolCallId: string;
	/** 2.6.0's sweep (only assistants reset the open calls) would remove it; else only 2.9.1's does. */
	readonly sweptFrom260: boolean;
}

interface Orphans {
	readonly results: OrphanResult[];
	/** `assistantTimestamp:callId` → call id. */
	readonly calls: Map<string, string>;
}

export function* orphanWarningsSteps(before: readonly AgentMessage[], after: readonly AgentMessage[], rules: ReleaseRules): Steps<DefectWarning[]> {
	const sent = yield* findOrphans(after);
	if (sent.results.length === 0 && sent.calls.size === 0) {
		return [];
	}
	const own = yield* findOrphans(before);
	const warnings: DefectWarning[] = [];
	// Paced: a long session pruned by a release with these defects can have thousands of each.
	const ownResults = new Set<string>();
	for (let i = 0; i < own.results.length; i++) {
		if (paced(i)) {
			yield;
		}
		ownResults.add((own.results[i] as OrphanResult).key);
	}
	const produced: OrphanResult[] = [];
	const inherited: OrphanResult[] = [];
	for (let i = 0; i < sent.results.length; i++) {
		if (paced(i)) {
			yield;
		}
		const result = sent.results[i] as OrphanResult;
		(ownResults.has(result.key) ? inherited : produced).push(result);
	}
	for (const [results, origin] of [[produced, `after pi-condense ${rules.version} dropped their calls`], [inherited, 'as in Pi\'s own context']] as const) {
		if (results.length > 0) {
			warnings.push(resultWarning(results, origin, rules));
		}
	}
	const lostResults: string[] = [];
	let checked = 0;
	for (const [key, id] of sent.calls) {
		if (paced(checked++)) {
			yield;
		}
		if (!own.calls.has(key)) {
			lostResults.push(id);
		}
	}
	if (lostResults.length > 0) {
		warnings.push({
			kind: 'orphan-tool-call',
			release: rules.version,
			fixedIn: undefined,
			toolCallIds: lostResults,
			message: `${lostResults.length} tool call(s) are sent without their result (${idList(lostResults)}) after pi-condense ${rules.version} dropped the results: `
				+ 'Pi answers each with a synthetic "No result provided" error, so the model reads them as failed calls.',
		});
	}
	return warnings;
}

function resultWarning(results: readonly OrphanResult[], origin: string, rules: ReleaseRules): DefectWarning {
	const fixedIn = sweepRelease(results, rules.version);
	const ids = results.map((r) => r.toolCallId);
	const fix = fixedIn ? ` pi-condense ${fixedIn} removes them (orphan sweep).` : '';
	return {
		kind: 'orphan-tool-result',
		release: rules.version,
		fixedIn,
		toolCallIds: ids,
		message: `${ids.length} tool result(s) are sent without their tool call (${idList(ids)}), ${origin}: `
			+ `the provider rejects the request (Anthropic answers HTTP 400, every time until the context changes).${fix}`,
	};
}

/** The first release whose sweep removes every one of these results, when it is newer than `current`. */
function sweepRelease(results: readonly OrphanResult[], current: ReleaseVersion): ReleaseVersion | undefined {
	const fixedIn: ReleaseVersion = results.every((r) => r.sweptFrom260) ? '2.6.0' : '2.9.1';
	return isAtLeast(current, fixedIn) ? undefined : fixedIn;
}

function* findOrphans(messages: readonly AgentMessage[]): Steps<Orphans> {
	const orphans: Orphans = { results: [], calls: new Map() };
	let open = new Map<string, string>();
	/** The calls of the last assistant, as 2.6.0's sweep tracks them (no barriers). */
	let lastAssistant = new Set<string>();
	const closeGroup = (): void => {
		for (const [id, key] of open) {
			orphans.calls.set(key, id);
		}
		open = new Map();
	};
	for (let i = 0; i < messages.length; i++) {
		if (paced(i)) {
			yield;
		}
		const message = messages[i] as AgentMessage;
		if (message.role === 'assistant') {
			closeGroup();
			lastAssistant = new Set();
			for (const block of message.content) {
				if (block.type === 'toolCall') {
					open.set(block.id, `${message.timestamp}:${block.id}`);
					lastAssistant.add(block.id);
				}
			}
		} else if (message.role === 'toolResult') {
			const answered = lastAssistant.delete(message.toolCallId);
			if (!open.delete(message.toolCallId)) {
				orphans.results.push({ key: resultOccurrenceKey(message), toolCallId: message.toolCallId, sweptFrom260: !answered });
			}
		} else if (!(message.role === 'bashExecution' && message.excludeFromContext === true)) {
			closeGroup();
		}
	}
	closeGroup();
	return orphans;
}
