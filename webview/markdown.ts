/**
 * Markdown for summaries and chain bodies: `marked` turns it into HTML, DOMPurify keeps only a
 * small set of formatting tags (no scripts, no handlers, no styles, no forms, no SVG/MathML, no
 * images, no links), and the result comes back as a DOM fragment. This is the only place session
 * text becomes markup.
 *
 * No text from a session becomes a link, whatever its scheme: a link (markdown, reference-style,
 * autolink or HTML `<a>`) is shown as its label followed by its target in parentheses, as plain text
 * the user can select and copy, and an image as `[image: alt]` and its address (never loaded).
 * VS Code opens any link a webview holds (`https:` in the browser, `command:` as a command), so
 * none is left in the page.
 */
import DOMPurify from 'dompurify';
import { Marked } from 'marked';

const marked = new Marked({ gfm: true, breaks: false, async: false });

const ALLOWED_TAGS = [
	'p', 'br', 'hr', 'em', 'strong', 'del', 's', 'code', 'pre', 'blockquote', 'ul', 'ol', 'li',
	'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'span',
];
/** A target longer than this is cut (a `data:` URL can be megabytes). */
const MAX_TARGET_CHARS = 200;

const purify = DOMPurify(window);
purify.addHook('uponSanitizeElement', (node, data) => {
	if (!(node instanceof Element)) {
		return;
	}
	if (data.tagName === 'a') {
		// Removed by the sanitizer (not an allowed tag), its content kept: the target is added to that content.
		const target = linkTarget(node, 'href');
		if (target !== undefined && !sameAsLabel(target, node.textContent ?? '')) {
			node.append(` (${shorten(target)})`);
		}
	} else if (data.tagName === 'img') {
		const alt = node.getAttribute('alt')?.trim() ?? '';
		const target = linkTarget(node, 'src');
		node.after(`[image${alt === '' ? '' : `: ${alt}`}]${target === undefined ? '' : ` (${shorten(target)})`}`);
	}
});

const config = {
	ALLOWED_TAGS,
	ALLOWED_ATTR: ['align', 'start'],
	ALLOW_DATA_ATTR: false,
	ALLOW_ARIA_ATTR: false,
	RETURN_DOM_FRAGMENT: true as const,
};

/** Sanitized DOM for a markdown text. */
export function renderMarkdown(text: string): DocumentFragment {
	const html = marked.parse(text, { async: false });
	return purify.sanitize(html, config);
}

/** Where a link or image points, as written (SVG's `xlink:href` too); undefined when nowhere. */
function linkTarget(node: Element, attribute: 'href' | 'src'): string | undefined {
	const target = (node.getAttribute(attribute) ?? node.getAttribute('xlink:href') ?? '').trim();
	return target === '' ? undefined : target;
}

/** An autolink's label is its target (`https://x`, `www.x` for `http://www.x`, `a@b` for `mailto:a@b`). */
function sameAsLabel(target: string, label: string): boolean {
	const shown = label.trim();
	return target === shown || target.replace(/^(?:https?:\/\/|mailto:)/i, '') === shown.replace(/^(?:https?:\/\/|mailto:)/i, '');
}

function shorten(target: string): string {
	return target.length > MAX_TARGET_CHARS ? `${target.slice(0, MAX_TARGET_CHARS)}…` : target;
}
