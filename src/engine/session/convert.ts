/**
 * Pi's `convertToLlm`: what the provider receives for each `AgentMessage`. Pure.
 *
 * `system` (Pi 1.x), `user`, `assistant` and `toolResult` pass through; a `bashExecution` becomes user text (or is
 * dropped when excluded from context), a `custom` message becomes a user message (its `display`
 * flag only affects Pi's TUI, and `details` is never sent), and summaries are wrapped in Pi's exact
 * wording.
 */
import type { BashExecutionMessage, ContextMessage, LlmMessage, UserMessage } from './types';

const COMPACTION_SUMMARY_PREFIX = 'The conversation history before this point was compacted into the following summary:\n\n<summary>\n';
const COMPACTION_SUMMARY_SUFFIX = '\n</summary>';
const BRANCH_SUMMARY_PREFIX = 'The following is a summary of a branch that this conversation came back from:\n\n<summary>\n';
const BRANCH_SUMMARY_SUFFIX = '</summary>';

export function convertToLlm(messages: readonly ContextMessage[]): LlmMessage[] {
	const converted: LlmMessage[] = [];
	for (const message of messages) {
		const llm = toLlm(message);
		if (llm !== undefined) {
			converted.push(llm);
		}
	}
	return converted;
}

function toLlm(message: ContextMessage): LlmMessage | undefined {
	switch (message.role) {
		case 'system':
		case 'user':
		case 'assistant':
		case 'toolResult':
			return message;
		case 'bashExecution':
			return message.excludeFromContext ? undefined : userText(bashExecutionToText(message), message.timestamp);
		case 'custom':
			return {
				role: 'user',
				content: typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content,
				timestamp: message.timestamp,
			};
		case 'branchSummary':
			return userText(BRANCH_SUMMARY_PREFIX + message.summary + BRANCH_SUMMARY_SUFFIX, message.timestamp);
		case 'compactionSummary':
			return userText(COMPACTION_SUMMARY_PREFIX + message.summary + COMPACTION_SUMMARY_SUFFIX, message.timestamp);
		default:
			return undefined;
	}
}

function userText(text: string, timestamp: number): UserMessage {
	return { role: 'user', content: [{ type: 'text', text }], timestamp };
}

/** The user-visible text Pi sends for a `!cmd` run by the user. */
export function bashExecutionToText(message: BashExecutionMessage): string {
	let text = `Ran \`${message.command}\`\n`;
	text += message.output ? `\`\`\`\n${message.output}\n\`\`\`` : '(no output)';
	if (message.cancelled) {
		text += '\n\n(command cancelled)';
	} else if (message.exitCode !== null && message.exitCode !== undefined && message.exitCode !== 0) {
		text += `\n\nCommand exited with code ${message.exitCode}`;
	}
	if (message.truncated && message.fullOutputPath) {
		text += `\n\n[Output truncated. Full output: ${message.fullOutputPath}]`;
	}
	return text;
}
