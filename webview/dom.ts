/**
 * A small DOM builder. Session text only ever goes in through `textContent` (never markup), so
 * nothing a tool printed can become HTML.
 */

export interface ElementSpec {
	readonly className?: string;
	readonly text?: string;
	readonly title?: string;
	readonly attrs?: Readonly<Record<string, string>>;
	readonly data?: Readonly<Record<string, string>>;
}

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, spec: ElementSpec = {}, children: readonly (Node | null | undefined)[] = []): HTMLElementTagNameMap[K] {
	const node = document.createElement(tag);
	if (spec.className) {
		node.className = spec.className;
	}
	if (spec.text !== undefined) {
		node.textContent = spec.text;
	}
	if (spec.title !== undefined) {
		node.title = spec.title;
	}
	for (const [name, value] of Object.entries(spec.attrs ?? {})) {
		node.setAttribute(name, value);
	}
	for (const [name, value] of Object.entries(spec.data ?? {})) {
		node.dataset[name] = value;
	}
	for (const child of children) {
		if (child) {
			node.appendChild(child);
		}
	}
	return node;
}

/** A codicon glyph (light DOM; the font comes from the page's stylesheet). */
export function icon(name: string, label?: string): HTMLSpanElement {
	const node = el('span', { className: `codicon codicon-${name}` });
	if (label) {
		node.setAttribute('aria-label', label);
		node.setAttribute('role', 'img');
	} else {
		node.setAttribute('aria-hidden', 'true');
	}
	return node;
}

/** An element showing a figure the page reports back (`data-figure`), with its raw value. */
export function figure(name: string, text: string, value?: number, className = 'figure'): HTMLSpanElement {
	const data: Record<string, string> = { figure: name };
	if (value !== undefined) {
		data.value = String(value);
	}
	return el('span', { className, text, data });
}

export function clear(node: Element): void {
	while (node.firstChild) {
		node.removeChild(node.firstChild);
	}
}
