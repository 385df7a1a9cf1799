/**
 * Markdown for summaries and chain bodies: `marked` turns it into HTML, DOMPurify keeps only a
 * small set of formatting tags (no scripts, no handlers, no styles, no forms, no SVG/MathML, no
 * images, links only to http(s)), and the result comes back as a DOM fragment. This is the only
 * place session text becomes markup.
 */
import DOMPurify from 'dompurify';
import { Marked } from 'marked';

const marked = new Marked({ gfm: true, breaks: false, async: false });

const ALLOWED_TAGS = [
	'p', 'br', 'hr', 'em', 'strong', 'del', 's', 'code', 'pre', 'blockquote', 'ul', 'ol', 'li',
	'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'a', 'span',
];
const SAFE_LINK = /^https?:\/\//i;

const purify = DOMPurify(window);
purify.addHook('afterSanitizeAttributes', (node) => {
	if (node.tagName === 'A') {
		const href = node.getAttribute('href') ?? '';
		if (!SAFE_LINK.test(href)) {
			node.removeAttribute('href');
		}
		node.setAttribute('rel', 'noopener noreferrer');
	}
});

const config = {
	ALLOWED_TAGS,
	ALLOWED_ATTR: ['href', 'title', 'align', 'start'],
	ALLOW_DATA_ATTR: false,
	ALLOW_ARIA_ATTR: false,
	RETURN_DOM_FRAGMENT: true as const,
};

/** Sanitized DOM for a markdown text. */
export function renderMarkdown(text: string): DocumentFragment {
	const html = marked.parse(text, { async: false });
	return purify.sanitize(html, config);
}
