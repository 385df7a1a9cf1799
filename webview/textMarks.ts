/**
 * Passes over the text nodes of rendered blocks: known refs (`t12`, `b3`, raw ids that stubs name)
 * become hoverable, clickable ref elements, and search matches are wrapped in `<mark>`. Both only
 * split text nodes and create elements; no text is ever parsed as markup.
 */

const WORD = /[A-Za-z][A-Za-z0-9_-]*/g;

function textNodes(root: Node, skip: (node: Element) => boolean): Text[] {
	const found: Text[] = [];
	const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT, {
		acceptNode: (node) => node instanceof Element && skip(node) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT,
	});
	for (let node = walker.nextNode(); node; node = walker.nextNode()) {
		if (node instanceof Text && node.data !== '') {
			found.push(node);
		}
	}
	return found;
}

/** Wraps every word that is a known ref in `<span class="ref">`. */
export function linkRefs(root: Node, refs: ReadonlySet<string>): void {
	if (refs.size === 0) {
		return;
	}
	for (const node of textNodes(root, (element) => element.classList.contains('ref'))) {
		const text = node.data;
		let last = 0;
		let fragment: DocumentFragment | undefined;
		WORD.lastIndex = 0;
		for (let match = WORD.exec(text); match; match = WORD.exec(text)) {
			if (!refs.has(match[0])) {
				continue;
			}
			fragment ??= document.createDocumentFragment();
			fragment.append(text.slice(last, match.index), refElement(match[0]));
			last = match.index + match[0].length;
		}
		if (fragment) {
			fragment.append(text.slice(last));
			node.replaceWith(fragment);
		}
	}
}

export function refElement(ref: string): HTMLSpanElement {
	const span = document.createElement('span');
	span.className = 'ref';
	span.textContent = ref;
	span.dataset.ref = ref;
	// Not a tab stop of its own: the message list's Right arrow reaches it (rowFocus.ts).
	span.tabIndex = -1;
	span.setAttribute('role', 'link');
	span.title = `${ref}: hover for the raw output, click to open it`;
	return span;
}

/** Wraps case-insensitive matches of `query` in `<mark class="hit">`; returns how many. */
export function highlight(root: Node, query: string): number {
	if (query === '') {
		return 0;
	}
	const needle = query.toLowerCase();
	let count = 0;
	for (const node of textNodes(root, (element) => element.tagName === 'MARK' || element.tagName === 'BUTTON')) {
		const text = node.data;
		const lower = text.toLowerCase();
		// Lower-casing can change lengths for a few scripts; then offsets would not line up.
		if (lower.length !== text.length) {
			continue;
		}
		let from = 0;
		let at = lower.indexOf(needle, from);
		if (at < 0) {
			continue;
		}
		const fragment = document.createDocumentFragment();
		while (at >= 0) {
			const mark = document.createElement('mark');
			mark.className = 'hit';
			mark.textContent = text.slice(at, at + needle.length);
			fragment.append(text.slice(from, at), mark);
			count++;
			from = at + needle.length;
			at = lower.indexOf(needle, from);
		}
		fragment.append(text.slice(from));
		node.replaceWith(fragment);
	}
	return count;
}
