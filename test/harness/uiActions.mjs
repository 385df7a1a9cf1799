// UI actions that integration tests running inside the extension host ask the harness to perform on the
// workbench page (the extension host cannot click): a test logs one line
//   pi-condense-ui {"id":"3","action":"click","selector":"vscode-button[data-control=view-before]"}
// and the harness performs it in the frame (the workbench or a webview) holding that selector (or on the
// whole page for a screenshot), then writes <resultsDir>/<id>.json = {"ok":true} or {"ok":false,"error":"…"}; the
// "html" action answers {"ok":true,"value":"<the frame document's HTML, open shadow roots included>"}, the
// "elements" action the outer HTML of every element the selector matches there (a JSON array).
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const uiActionLine = /^pi-condense-ui (\{.*\})$/;

/** The frame (webviews are nested iframes) whose document has `selector`. */
async function frameWith(page, selector, timeoutMs) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		for (const frame of page.frames()) {
			if (await frame.locator(selector).count().catch(() => 0) > 0) {
				return frame;
			}
		}
		if (Date.now() > deadline) {
			throw new Error(`no frame holds ${selector}`);
		}
		await new Promise((done) => setTimeout(done, 100));
	}
}

async function perform(page, request) {
	const timeout = request.timeoutMs ?? 15_000;
	if (request.action === 'screenshot') {
		await page.screenshot({ path: request.path, type: 'png' });
		return;
	}
	const frame = await frameWith(page, request.selector, timeout);
	const target = frame.locator(request.selector).first();
	switch (request.action) {
		case 'click':
			return target.click({ timeout });
		case 'hover':
			return target.hover({ timeout });
		case 'press':
			return target.press(request.value, { timeout });
		case 'fill':
			return target.fill(request.value ?? '', { timeout });
		case 'html':
			// Web components keep their text in shadow roots, which outerHTML leaves out.
			return frame.locator('html').evaluate((root) => {
				const parts = [root.outerHTML];
				const walk = (node) => {
					for (const element of node.querySelectorAll('*')) {
						if (element.shadowRoot) {
							parts.push(element.shadowRoot.innerHTML);
							walk(element.shadowRoot);
						}
					}
				};
				walk(root);
				return parts.join('\n');
			});
		case 'elements':
			return frame.locator(request.selector).evaluateAll((nodes) => JSON.stringify(nodes.map((node) => node.outerHTML)));
		case 'scroll':
			return target.evaluate((node, top) => {
				node.scrollTop = top;
			}, request.value ?? 0);
		default:
			throw new Error(`unknown UI action ${request.action}`);
	}
}

export async function performUiAction(page, request, resultsDir) {
	let outcome;
	try {
		const value = await perform(page, request);
		outcome = typeof value === 'string' ? { ok: true, value } : { ok: true };
	} catch (error) {
		outcome = { ok: false, error: error instanceof Error ? error.message : String(error) };
	}
	// Written aside, then renamed: the test polls for the file and must never read half of it.
	const file = join(resultsDir, `${request.id}.json`);
	writeFileSync(`${file}.tmp`, JSON.stringify(outcome));
	renameSync(`${file}.tmp`, file);
}
