/**
 * For integration tests in the extension host: asks the harness (test/harness/uiActions.mjs) to
 * click, fill, press a key, hover or scroll in the workbench or one of its webviews, to read a
 * frame's HTML, or to take a screenshot, and waits for the outcome it writes back.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';

/** `timeoutMs`: how long the harness waits for a frame holding the selector (default 15 s). */
export type UiAction = { readonly timeoutMs?: number } & (
	| { readonly action: 'click' | 'hover'; readonly selector: string }
	/** Answers the HTML of the webview document holding `selector`, open shadow roots included. */
	| { readonly action: 'html'; readonly selector: string }
	/** Answers the outer HTML of every element matching `selector`, as a JSON array of strings. */
	| { readonly action: 'elements'; readonly selector: string }
	| { readonly action: 'fill'; readonly selector: string; readonly value: string }
	/** A key (Playwright's names: `Enter`, `Escape`) pressed with `selector` focused. */
	| { readonly action: 'press'; readonly selector: string; readonly value: string }
	| { readonly action: 'scroll'; readonly selector: string; readonly value: number }
	| { readonly action: 'screenshot'; readonly path: string });

let nextId = 0;

/** Performs the action; answers the HTML for an `html` or `elements` action. */
export async function ui(request: UiAction, timeoutMs = 30_000): Promise<string | undefined> {
	const dir = process.env['PI_CONDENSE_TEST_UI_RESULTS'];
	if (!dir) {
		throw new Error('PI_CONDENSE_TEST_UI_RESULTS is not set: run through test/harness/run-integration.mjs');
	}
	// Each test file is bundled with its own copy of this module (and counter): the random part keeps
	// one file's request from reading another's outcome.
	const id = `${process.pid}-${randomUUID()}-${++nextId}`;
	console.log(`pi-condense-ui ${JSON.stringify({ ...request, id })}`);
	const file = join(dir, `${id}.json`);
	const deadline = Date.now() + timeoutMs;
	while (!existsSync(file)) {
		if (Date.now() > deadline) {
			throw new Error(`the harness did not perform ${JSON.stringify(request)}`);
		}
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
	const outcome = JSON.parse(readFileSync(file, 'utf8')) as { ok: boolean; error?: string; value?: string };
	if (!outcome.ok) {
		throw new Error(`UI action ${JSON.stringify(request)} failed: ${outcome.error ?? '?'}`);
	}
	return outcome.value;
}
