/**
 * The blocks a message shows in the preview: text, markdown (summaries, chain bodies, compaction
 * and branch summaries), thinking, tool calls with their arguments, tool results and image
 * placeholders. Pure. The same function gives the bounded blocks of a row and the full blocks of an
 * expanded row, so the page and the search see the same texts.
 */
import { contentText } from '../condense/occurrence';
import { syntheticBlockId } from '../condense/phases/syntheticChain';
import type { AssistantContent, ContextMessage, SystemMessage, UserContent } from '../session/types';
import { bounded } from '../../base/boundedText';
import { prettyArgs, type ArgsText } from './argsText';
import type { PreviewBlock } from './types';

const PURGE_MARKER = /^<purged-errored-args size="(\d+)"\/>$/;
const SUMMARY_TYPE = 'context-prune-summary';

/** Blocks of one message, each text cut at `maxChars`. */
export function messageBlocks(message: ContextMessage, maxChars: number, argsText: ArgsText = prettyArgs): PreviewBlock[] {
	switch (message.role) {
		case 'system':
			return systemBlocks(message, maxChars);
		case 'user':
			if (syntheticBlockId(message) !== undefined) {
				return [{ kind: 'markdown', text: bounded(contentText(message.content), maxChars) }];
			}
			return userContentBlocks(message.content, maxChars, 'text');
		case 'assistant':
			return message.content.map((block) => assistantBlock(block, maxChars, argsText));
		case 'toolResult':
			return [
				{ kind: 'toolResult', toolName: message.toolName, isError: message.isError, text: bounded(contentText(message.content), maxChars) },
				...imageBlocks(message.content),
			];
		case 'custom':
			return userContentBlocks(message.content, maxChars, message.customType === SUMMARY_TYPE ? 'markdown' : 'text');
		case 'bashExecution':
			return [{ kind: 'text', text: bounded(`$ ${message.command}\n${message.output}`, maxChars) }];
		case 'branchSummary':
		case 'compactionSummary':
			return [{ kind: 'markdown', text: bounded(message.summary, maxChars) }];
	}
}

/**
 * A system message (Pi 1.x): its text, each section it sets (or removes) under its name, and the
 * tools it adds or removes, by name (their schemas count in the size, not in the text).
 */
function systemBlocks(message: SystemMessage, maxChars: number): PreviewBlock[] {
	const blocks: PreviewBlock[] = [];
	const text = typeof message.content === 'string' ? message.content : message.content.map((block) => block.text).join('\n');
	if (text.length > 0) {
		blocks.push({ kind: 'text', text: bounded(text, maxChars) });
	}
	for (const [name, value] of Object.entries(message.sections ?? {})) {
		blocks.push({ kind: 'text', text: bounded(value === null ? `[section ${name} removed]` : `[section ${name}]\n${value}`, maxChars) });
	}
	const added = message.toolsAdded ?? [];
	if (added.length > 0) {
		blocks.push({ kind: 'text', text: bounded(`[tools added] ${added.map((tool) => tool.name).join(', ')}`, maxChars) });
	}
	const removed = message.toolsRemoved ?? [];
	if (removed.length > 0) {
		blocks.push({ kind: 'text', text: bounded(`[tools removed] ${removed.map((tool) => tool.name).join(', ')}`, maxChars) });
	}
	return blocks;
}

function userContentBlocks(content: string | readonly UserContent[], maxChars: number, kind: 'text' | 'markdown'): PreviewBlock[] {
	if (typeof content === 'string') {
		return [{ kind, text: bounded(content, maxChars) }];
	}
	return content.map((part): PreviewBlock => part.type === 'text'
		? { kind, text: bounded(part.text, maxChars) }
		: imageBlock(part.mimeType, part.data));
}

function imageBlocks(content: readonly UserContent[]): PreviewBlock[] {
	const images: PreviewBlock[] = [];
	for (const part of content) {
		if (part.type === 'image') {
			images.push(imageBlock(part.mimeType, part.data));
		}
	}
	return images;
}

function imageBlock(mimeType: string, base64: string): PreviewBlock {
	return { kind: 'image', mimeType, bytes: Math.floor((base64.length * 3) / 4) };
}

function assistantBlock(block: AssistantContent, maxChars: number, argsText: ArgsText): PreviewBlock {
	switch (block.type) {
		case 'text':
			return { kind: 'text', text: bounded(block.text, maxChars) };
		case 'thinking':
			return { kind: 'thinking', text: bounded(block.redacted ? '' : block.thinking, maxChars), redacted: block.redacted === true };
		case 'toolCall': {
			const purged = typeof block.arguments._purged === 'string' ? PURGE_MARKER.exec(block.arguments._purged) : null;
			const text = bounded(argsText(block), maxChars);
			return purged
				? { kind: 'toolCall', id: block.id, name: block.name, text, purgedSize: Number(purged[1]) }
				: { kind: 'toolCall', id: block.id, name: block.name, text };
		}
	}
}

/** The searchable text of a block (empty for images). */
export function blockText(block: PreviewBlock): string {
	return block.kind === 'image' ? '' : block.text.text;
}
