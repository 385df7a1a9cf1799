/**
 * Shape checks for messages read from a session file. Pure.
 *
 * Pi trusts its own files; we read files a user may have edited, truncated or that another tool
 * wrote, so every field the engine relies on is checked here, once, at the edge. A check returns
 * `undefined` when the value fits, otherwise a short reason. Fields the engine never reads are left
 * as they are, so a well-formed message is kept byte-for-byte as Pi would keep it.
 */
import { isPlainObject } from '../../base/plainObject';

export type Problem = string | undefined;

/**
 * Roles of Pi 1.6.0's `AgentMessage`, which a `message` entry may hold (after the v2 → v3 rename of
 * `hookMessage`; `system` from Pi 0.86.0). Pi writes the two summary roles as entries of their own, but
 * passes one found in a message entry through like any other.
 */
const storedRoles = new Set(['system', 'user', 'assistant', 'toolResult', 'bashExecution', 'custom', 'branchSummary', 'compactionSummary']);

/** True for a role Pi 1.6.0 does not store: a message from a newer Pi (or another program). */
export function isUnknownRole(message: unknown): boolean {
	return isPlainObject(message) && typeof message['role'] === 'string' && !storedRoles.has(message['role']);
}

/** Checks `value` as a stored `AgentMessage`; narrows it when there is no problem. */
export function checkMessage(value: unknown): Problem {
	if (!isPlainObject(value)) {
		return '`message` is not an object';
	}
	const role = value['role'];
	if (typeof role !== 'string' || !storedRoles.has(role)) {
		return `unknown message role ${JSON.stringify(role)}`;
	}
	switch (role) {
		case 'system':
			return checkSystemMessage(value);
		case 'user':
			return checkUserContent(value['content'], 'user message');
		case 'assistant':
			return checkAssistantContent(value['content']);
		case 'toolResult':
			return checkToolResult(value);
		case 'bashExecution':
			return checkBashExecution(value);
		case 'branchSummary':
		case 'compactionSummary':
			return typeof value['summary'] === 'string' ? undefined : `${role} message has no string \`summary\``;
		default:
			return checkCustomMessageFields(value, 'custom message');
	}
}

/**
 * A system message (Pi 1.x): text content (a string or text blocks), `sections` of strings or `null`,
 * and tool lists whose items have a string `name` (a declaration's schema is kept as written).
 */
export function checkSystemMessage(value: Record<string, unknown>): Problem {
	const content = value['content'];
	if (typeof content !== 'string') {
		if (!Array.isArray(content)) {
			return 'system message content is neither a string nor an array';
		}
		const problem = checkBlocks(content, 'system message', (block) => (block['type'] === 'text' && typeof block['text'] === 'string' ? undefined : 'not a text block'));
		if (problem) {
			return problem;
		}
	}
	const sections = value['sections'];
	if (sections !== undefined && (!isPlainObject(sections) || Object.values(sections).some((section) => section !== null && typeof section !== 'string'))) {
		return 'system message `sections` is not an object of texts';
	}
	for (const key of ['toolsAdded', 'toolsRemoved']) {
		const tools = value[key];
		if (tools !== undefined && (!Array.isArray(tools) || tools.some((tool) => !isPlainObject(tool) || typeof tool['name'] !== 'string'))) {
			return `system message \`${key}\` is not a list of named tools`;
		}
	}
	return undefined;
}

/**
 * A `context_edit` replacement: `null`, or `{content}` with a string or content blocks (the target's
 * role decides which blocks make sense; Pi sends them as written, so any well-formed block passes).
 */
export function checkReplacement(replacement: unknown): Problem {
	if (replacement === null) {
		return undefined;
	}
	if (!isPlainObject(replacement) || !('content' in replacement)) {
		return '`replacement` is neither null nor an object with `content`';
	}
	const content = replacement['content'];
	if (typeof content === 'string') {
		return undefined;
	}
	if (!Array.isArray(content)) {
		return 'replacement content is neither a string nor an array';
	}
	return checkBlocks(content, 'replacement', (block) => (block['type'] === 'thinking' || block['type'] === 'toolCall' ? assistantBlockProblem(block) : userBlockProblem(block)));
}

/** A custom message's `customType` and `content` (shared by `custom_message` entries). */
export function checkCustomMessageFields(value: Record<string, unknown>, what: string): Problem {
	if (typeof value['customType'] !== 'string') {
		return `${what} has no string \`customType\``;
	}
	return checkUserContent(value['content'], what);
}

/** `string | (TextContent | ImageContent)[]` */
function checkUserContent(content: unknown, what: string): Problem {
	if (typeof content === 'string') {
		return undefined;
	}
	if (!Array.isArray(content)) {
		return `${what} content is neither a string nor an array`;
	}
	return checkBlocks(content, what, userBlockProblem);
}

function checkAssistantContent(content: unknown): Problem {
	if (!Array.isArray(content)) {
		return 'assistant message content is not an array';
	}
	return checkBlocks(content, 'assistant message', assistantBlockProblem);
}

function checkToolResult(value: Record<string, unknown>): Problem {
	if (typeof value['toolCallId'] !== 'string') {
		return 'tool result has no string `toolCallId`';
	}
	if (typeof value['toolName'] !== 'string') {
		return 'tool result has no string `toolName`';
	}
	const content = value['content'];
	if (!Array.isArray(content)) {
		return 'tool result content is not an array';
	}
	return checkBlocks(content, 'tool result', userBlockProblem);
}

function checkBashExecution(value: Record<string, unknown>): Problem {
	if (typeof value['command'] !== 'string') {
		return 'bash execution has no string `command`';
	}
	const output = value['output'];
	if (output !== undefined && typeof output !== 'string') {
		return 'bash execution `output` is not a string';
	}
	return undefined;
}

function checkBlocks(blocks: readonly unknown[], what: string, blockProblem: (block: Record<string, unknown>) => Problem): Problem {
	for (let i = 0; i < blocks.length; i++) {
		const block = blocks[i];
		if (!isPlainObject(block)) {
			return `${what} content[${i}] is not an object`;
		}
		const problem = blockProblem(block);
		if (problem) {
			return `${what} content[${i}]: ${problem}`;
		}
	}
	return undefined;
}

function userBlockProblem(block: Record<string, unknown>): Problem {
	switch (block['type']) {
		case 'text':
			return typeof block['text'] === 'string' ? undefined : 'text block without string `text`';
		case 'image':
			return typeof block['data'] === 'string' ? undefined : 'image block without string `data`';
		default:
			return unknownBlockProblem(block);
	}
}

function assistantBlockProblem(block: Record<string, unknown>): Problem {
	switch (block['type']) {
		case 'text':
			return typeof block['text'] === 'string' ? undefined : 'text block without string `text`';
		case 'thinking':
			return typeof block['thinking'] === 'string' ? undefined : 'thinking block without string `thinking`';
		case 'toolCall':
			if (typeof block['id'] !== 'string' || typeof block['name'] !== 'string') {
				return 'tool call without string `id` and `name`';
			}
			return isPlainObject(block['arguments']) ? undefined : 'tool call `arguments` is not an object';
		default:
			return unknownBlockProblem(block);
	}
}

/** Block types from newer pi-ai versions pass through untouched, as Pi passes them. */
function unknownBlockProblem(block: Record<string, unknown>): Problem {
	return typeof block['type'] === 'string' ? undefined : 'block without a string `type`';
}
