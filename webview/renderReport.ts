/**
 * What the page tells the host after a render, in test runs only: rows in the DOM, node count
 * (shadow roots included), timing and every figure the user can read. Production builds leave this
 * module out (see buildFlags.d.ts); `npm run package` fails if its report is found in the bundle.
 */
import type { RenderReport } from '../src/shared/protocol';
import type { HostChannel } from './hostChannel';

export type ReportParts = Omit<RenderReport, 'domNodes' | 'renderMs' | 'figures' | 'values' | 'highlights'>;

/** Posts what was rendered once the frame showing it has been produced. */
export function postReport(host: HostChannel, since: number, parts: () => ReportParts): void {
	requestAnimationFrame(() => window.setTimeout(() => {
		host.post({
			type: 'rendered',
			report: {
				...parts(),
				domNodes: countNodes(document.documentElement),
				renderMs: performance.now() - since,
				...readFigures(),
				highlights: document.querySelectorAll('mark.hit').length,
			},
		});
	}, 0));
}

function countNodes(root: Node): number {
	let count = 0;
	const stack: Node[] = [root];
	while (stack.length > 0) {
		const node = stack.pop() as Node;
		count++;
		if (node instanceof Element && node.shadowRoot) {
			stack.push(node.shadowRoot);
		}
		for (let child = node.firstChild; child; child = child.nextSibling) {
			stack.push(child);
		}
	}
	return count;
}

function readFigures(): Pick<RenderReport, 'figures' | 'values'> {
	const figures: Record<string, string> = {};
	const values: Record<string, number> = {};
	for (const node of document.querySelectorAll<HTMLElement>('[data-figure]')) {
		const name = node.dataset.figure ?? '';
		figures[name] = node.textContent ?? '';
		if (node.dataset.value !== undefined) {
			values[name] = Number(node.dataset.value);
		}
	}
	return { figures, values };
}
