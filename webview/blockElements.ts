/**
 * One block of a message as DOM: text, markdown (sanitized), thinking (collapsed), a tool call
 * with its arguments, a tool result, or an image placeholder. Session text goes in as text only,
 * except markdown, which goes through the sanitizer.
 */
import type { BoundedText, PreviewBlock } from '../src/shared/protocol';
import { el, icon } from './dom';
import { bytes, chars } from './format';
import { renderMarkdown } from './markdown';

export interface BlockOptions {
	/** Show markdown as its exact source text instead of formatted. */
	readonly raw: boolean;
	/** Open collapsed parts (thinking), e.g. when a search hit is inside. */
	readonly open: boolean;
}

export function blockElement(block: PreviewBlock, options: BlockOptions): HTMLElement {
	switch (block.kind) {
		case 'text':
			return el('div', { className: 'block block-text' }, [textBody(block.text)]);
		case 'markdown':
			return el('div', { className: 'block block-markdown' }, [options.raw ? textBody(block.text) : markdownBody(block.text)]);
		case 'thinking': {
			const details = el('details', { className: 'block block-thinking' }, [
				el('summary', {}, [icon('lightbulb'), el('span', { text: block.redacted ? ' Redacted thinking (encrypted, sent as is)' : ` Thinking · ${chars(block.text.total)}` })]),
				block.redacted ? null : textBody(block.text),
			]);
			details.open = options.open;
			return details;
		}
		case 'toolCall':
			return el('div', { className: 'block block-call' }, [
				el('div', { className: 'call-head' }, [
					icon('tools'),
					el('span', { className: 'call-name', text: block.name }),
					el('span', { className: 'call-id', text: block.id }),
					block.purgedSize !== undefined ? el('span', { className: 'chip chip-purged', text: `arguments purged (${chars(block.purgedSize)})` }) : null,
				]),
				textBody(block.text, 'args'),
			]);
		case 'toolResult':
			return el('div', { className: block.isError ? 'block block-result is-error' : 'block block-result' }, [textBody(block.text)]);
		case 'image':
			return el('div', { className: 'block block-image' }, [icon('file-media'), el('span', { text: ` ${block.mimeType} image, ${bytes(block.bytes)} (not shown)` })]);
		default: {
			const _exhaustive: never = block;
			return _exhaustive;
		}
	}
}

function textBody(text: BoundedText, extraClass = ''): HTMLElement {
	const body = el('div', { className: `text-body ${extraClass}`.trim() }, [el('pre', { className: 'text', text: text.text })]);
	if (text.text.length < text.total) {
		body.appendChild(el('div', { className: 'cut', text: `… ${chars(text.total - text.text.length)} more` }));
	}
	return body;
}

const CHAIN_OPEN = /^(<compressed-chain [^>\n]*>)\n/;
const CHAIN_CLOSE = /\n(<\/compressed-chain>)$/;

/**
 * Formatted markdown. A compressed chain keeps its opening and closing tags as exact text (they
 * carry the block id and the refs the model sees); only the summary between them is formatted.
 */
function markdownBody(text: BoundedText): HTMLElement {
	const body = el('div', { className: 'text-body markdown' });
	let source = text.text;
	const open = CHAIN_OPEN.exec(source);
	const close = open ? CHAIN_CLOSE.exec(source) : null;
	if (open) {
		body.appendChild(el('pre', { className: 'text chain-tag', text: open[1] }));
		source = source.slice(open[0].length, close ? close.index : undefined);
	}
	body.appendChild(renderMarkdown(source));
	if (close) {
		body.appendChild(el('pre', { className: 'text chain-tag', text: close[1] }));
	}
	if (text.text.length < text.total) {
		body.appendChild(el('div', { className: 'cut', text: `… ${chars(text.total - text.text.length)} more` }));
	}
	return body;
}
