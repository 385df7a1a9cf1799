/**
 * The human-readable `preview`: status, size per category before and after, then one line per
 * message of the rendered context.
 */
import { charsToTokens, contentText, contextBreakdownSteps, formatCompactCount, type RenderedContext, type SizeCategory, syntheticBlockId } from '../engine/condense';
import { collapsedWhitespace } from '../base/boundedText';
import { type AssistantContent, type ContextMessage, systemPromptText } from '../engine/session';
import { runSteps } from '../engine/steps';

const CATEGORY_LABELS: readonly [SizeCategory, string][] = [
	['system', 'system prompt'], ['user', 'user'], ['assistantText', 'assistant text'], ['thinking', 'thinking'], ['toolCalls', 'tool calls'],
	['toolResults', 'tool results'], ['summaries', 'summaries'], ['compressedChains', 'compressed chains'], ['other', 'other'],
];

export function previewText(preview: RenderedContext): string {
	const before = runSteps(contextBreakdownSteps(preview.before));
	const after = preview.after === preview.before ? before : runSteps(contextBreakdownSteps(preview.after));
	const lines = [
		preview.statusText,
		`${preview.before.length} messages -> ${preview.after.length} messages`,
		'',
		'Tokens (chars / 4)      before      after',
		...CATEGORY_LABELS.filter(([key]) => key !== 'system' || before.system + after.system > 0).map(([key, label]) => `  ${label.padEnd(20)}${tokens(before[key]).padStart(8)}${tokens(after[key]).padStart(11)}`),
		`  ${'total'.padEnd(20)}${tokens(before.total).padStart(8)}${tokens(after.total).padStart(11)}`,
		'',
		'Context sent to the model:',
		...preview.after.map((message, i) => `  #${String(i).padEnd(4)} ${describe(message)}`),
	];
	if (preview.diagnostics.length > 0 || preview.state.diagnostics.length > 0) {
		lines.push('', 'Diagnostics:');
		lines.push(...preview.state.diagnostics.map((d) => `  line ${d.line}: ${d.message}`));
		lines.push(...preview.diagnostics.map((d) => `  ${d.kind}: ${d.detail}`));
	}
	if (preview.warnings.length > 0) {
		lines.push('', 'Warnings:');
		lines.push(...preview.warnings.map((w) => `  ${w.message}`));
	}
	return lines.join('\n');
}

function tokens(chars: number): string {
	return formatCompactCount(charsToTokens(chars));
}

function describe(message: ContextMessage): string {
	const [kind, detail] = summarize(message);
	return `${kind.padEnd(10)} ${detail}`;
}

function summarize(message: ContextMessage): [string, string] {
	switch (message.role) {
		case 'system':
			return ['system', `${quoted(systemPromptText(message))}${toolCount(message.toolsAdded, '+')}${toolCount(message.toolsRemoved, '-')}`];
		case 'user':
			return [syntheticBlockId(message) === undefined ? 'user' : 'chain', quoted(contentText(message.content))];
		case 'assistant':
			return ['assistant', message.content.length === 0 ? '(empty)' : message.content.map(describeBlock).join(' ')];
		case 'toolResult':
			return ['result', `${message.toolName}${message.isError ? ' [error]' : ''}: ${quoted(contentText(message.content))}`];
		case 'custom':
			return ['custom', `${message.customType}: ${quoted(contentText(message.content))}`];
		case 'bashExecution':
			return ['bash', quoted(message.command)];
		case 'branchSummary':
		case 'compactionSummary':
			return [message.role, quoted(message.summary)];
	}
}

function describeBlock(block: AssistantContent): string {
	switch (block.type) {
		case 'text':
			return quoted(block.text, 60);
		case 'thinking':
			return '[thinking]';
		case 'toolCall':
			return `${block.name}(${collapsedWhitespace(JSON.stringify(block.arguments), 50)})`;
		default:
			// Block types of newer pi-ai versions are passed through as Pi passes them.
			return `[${String((block as { type: unknown }).type)}]`;
	}
}

function toolCount(tools: readonly unknown[] | undefined, sign: string): string {
	return tools && tools.length > 0 ? ` ${sign}${tools.length} tool${tools.length === 1 ? '' : 's'}` : '';
}

function quoted(text: string, max = 90): string {
	return JSON.stringify(collapsedWhitespace(text, max));
}
