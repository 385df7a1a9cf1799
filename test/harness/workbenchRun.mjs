// How a UI script runs in the real workbench (code-server and headless Chromium, from lib.mjs): one run with
// its pass/fail line, failure screenshot and the extension's last log lines; the Command Palette driven by a
// command's title; the workbench URL that loads our extension (and its tests).
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { exitWhenClosed, launchChromium, projectRoot, startCodeServer } from './lib.mjs';

/**
 * One workbench run of a UI script: code-server on `workspace` with `env`, headless Chromium on a
 * 1280×800 page, then `body(page, server)`. Prints `<name>: 1 passed, 0 failed` or the failure with a
 * screenshot (`screenshots-tmp/<name>-failure.png`), closes the browser and the server, then `cleanup`,
 * and ends the process as `exitWhenClosed` does.
 */
export async function runInWorkbench(name, { workspace, env = {}, settings = {}, cleanup = () => undefined }, body) {
	let server;
	let browser;
	let page;
	let code = 1;
	try {
		server = await startCodeServer({ workspace, verbose: Boolean(process.env.HARNESS_VERBOSE), env, settings });
		browser = await launchChromium();
		page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
		await body(page, server);
		console.log(`${name}: 1 passed, 0 failed`);
		code = 0;
	} catch (error) {
		const failure = join(projectRoot, 'screenshots-tmp');
		mkdirSync(failure, { recursive: true });
		const shot = join(failure, `${name}-failure.png`);
		const taken = page ? await page.screenshot({ path: shot }).then(() => true, () => false) : false;
		console.error(`[${name}] FAILED: ${error instanceof Error ? error.message : String(error)}${taken ? ` (screenshot: ${shot})` : ''}`);
		const log = server ? extensionLogTail(server.userDataDir) : undefined;
		if (log) {
			console.error(`[${name}] the extension's log, last lines:\n${log}`);
		}
		console.log(`${name}: 0 passed, 1 failed`);
	} finally {
		await browser?.close();
		await server?.stop();
		cleanup();
	}
	await exitWhenClosed(code);
}

/** The last `lines` lines of the extension's own log (its output channel, `pi-condense.pi-condense-vscode/*.log`), if VS Code wrote one. */
export function extensionLogTail(userDataDir, lines = 40) {
	const found = [];
	const walk = (dir, depth) => {
		for (const entry of existsSync(dir) && depth < 8 ? readdirSync(dir, { withFileTypes: true }) : []) {
			const path = join(dir, entry.name);
			if (entry.isDirectory()) {
				walk(path, depth + 1);
			} else if (entry.name.endsWith('.log') && path.includes(`${sep}pi-condense.pi-condense-vscode${sep}`)) {
				found.push(path);
			}
		}
	};
	walk(join(userDataDir, 'logs'), 0);
	return found.map((path) => readFileSync(path, 'utf8').trimEnd().split('\n').slice(-lines).join('\n')).join('\n').trim() || undefined;
}

/**
 * Runs a command from the Command Palette (F1), by its title as the palette lists it, as a person does: types
 * the title, waits until the palette offers that command highlighted (the row Enter runs), then presses Enter,
 * and waits until the palette has closed on it. A palette that closes before Enter (it lost the focus) is
 * opened again; one that closes after Enter ran the command.
 */
export async function palette(page, title, attempts = 3) {
	const input = page.locator('.quick-input-widget input');
	const chosen = page.locator('.quick-input-list .monaco-list-row.focused', { hasText: title }).first();
	for (let attempt = 1; ; attempt++) {
		let entered = false;
		try {
			await page.keyboard.press('F1');
			await input.waitFor({ state: 'visible', timeout: 10_000 });
			await input.fill(`>${title}`, { timeout: 5_000 });
			await chosen.waitFor({ timeout: 20_000 });
			// Still the palette's to answer: Enter goes where the keyboard is.
			await page.waitForFunction(() => document.activeElement?.closest('.quick-input-widget') !== null, undefined, { timeout: 5_000 });
			await page.keyboard.press('Enter');
			entered = true;
			// The palette has taken it: it closed, or the command's own quick pick replaced it (Open Session…).
			await page.waitForFunction((typed) => {
				const field = document.querySelector('.quick-input-widget input');
				return !field || field.closest('.quick-input-widget').matches('[inert], .quick-input-widget-closing') || field.offsetParent === null || field.value !== typed;
			}, `>${title}`, { timeout: 10_000 });
			return;
		} catch (error) {
			// After Enter the command may have run (a reload destroys the page under the wait): never run it twice.
			if (entered || attempt >= attempts || await input.isVisible().catch(() => false)) {
				throw error;
			}
		}
	}
}

/**
 * Opens Search Pi Sessions…, types `text` and waits for `ready(page)` (the rows the caller needs), with the keyboard
 * still in the pick. Opening the pick has no effect of its own, so it is opened again when something closed it before
 * it was typed into (a restored editor taking the keyboard back in steps after a reload closes an open quick pick: the
 * field goes `inert` under the fill, seen in CI).
 */
export async function searchSessions(page, text, ready, attempts = 3) {
	const input = page.locator('.quick-input-widget input');
	for (let attempt = 1; ; attempt++) {
		try {
			await palette(page, 'Pi Condense: Search Pi Sessions…');
			// The palette's field becomes the pick's: typed into once the pick's title shows and the field is live.
			await page.locator('.quick-input-widget .quick-input-title', { hasText: 'search Pi sessions' }).waitFor({ state: 'visible', timeout: 20_000 });
			await page.waitForFunction(() => {
				const field = document.querySelector('.quick-input-widget input');
				return field !== null && field.closest('[inert]') === null && field.offsetParent !== null && document.activeElement === field;
			}, undefined, { timeout: 10_000 });
			await input.fill(text, { timeout: 5_000 });
			await ready(page);
			await page.waitForFunction(() => document.activeElement?.closest('.quick-input-widget') !== null, undefined, { timeout: 5_000 });
			return;
		} catch (error) {
			if (attempt >= attempts) {
				throw error;
			}
			await page.keyboard.press('Escape').catch(() => undefined);
		}
	}
}

/**
 * The session rows of Pi Sessions (with their figures: `msgs` in the description): whether VS Code cut any
 * of them (its label's container scrolls), as each is drawn, then with the pointer on the first (its
 * Open Session File button takes room). Throws naming the rows cut; returns what was checked.
 */
export async function sessionFiguresInView(page) {
	const sessionsPane = page.locator('.part.sidebar .pane', { has: page.locator('.pane-header', { hasText: 'Pi Sessions' }) });
	const sessionRows = sessionsPane.locator('.monaco-list-row[aria-level="2"]', { hasText: 'msgs' });
	await sessionRows.first().waitFor({ timeout: 30_000 });
	const measure = () => sessionRows.evaluateAll((rows) => rows.map((element) => {
		const box = element.querySelector('.monaco-icon-label-container');
		return { text: element.textContent, cut: box.scrollWidth > box.clientWidth, width: box.clientWidth, needed: box.scrollWidth };
	}));
	const check = (rows, how) => {
		const cut = rows.filter((one) => one.cut);
		if (cut.length > 0) {
			throw new Error(`${how}, VS Code cut ${cut.length} session row(s) at the default side bar width: ${cut.map((one) => `"${one.text}" (${one.needed} px in ${one.width})`).join('; ')}`);
		}
	};
	const drawn = await measure();
	check(drawn, 'as drawn');
	await sessionRows.first().hover();
	await sessionRows.first().locator('.action-label[aria-label^="Open Session File"]').waitFor({ state: 'visible' });
	check(await measure(), 'with the pointer on the first');
	await page.mouse.move(1000, 400);
	return `${drawn.length} row(s), ${drawn[0]?.width} px for the first's text`;
}

/**
 * What a list settles on: reads `read()` until two reads `everyMs` apart agree (a list VS Code fills in steps,
 * such as the palette's commands and then its similar ones). Gives up after `timeoutMs` with the last read.
 */
export async function settled(read, { everyMs = 300, timeoutMs = 10_000 } = {}) {
	let last = JSON.stringify(await read());
	for (const deadline = Date.now() + timeoutMs; Date.now() < deadline;) {
		await new Promise((done) => setTimeout(done, everyMs));
		const next = JSON.stringify(await read());
		if (next === last) {
			return JSON.parse(next);
		}
		last = next;
	}
	return JSON.parse(last);
}

/**
 * The workbench URL opening `workspace`. With extensionDevelopmentPath the extension there is loaded as a
 * development extension; with extensionTestsPath VS Code runs that file's run() in the extension host.
 * Both travel in the client `payload`: code-server rejects them as server options.
 */
export function workbenchUrl(server, { workspace, extensionDevelopmentPath, extensionTestsPath }) {
	const remote = (path) => 'vscode-remote://remote' + resolve(path).split(sep).join('/');
	const payload = [];
	if (extensionDevelopmentPath) {
		payload.push(['extensionDevelopmentPath', remote(extensionDevelopmentPath)]);
	}
	if (extensionTestsPath) {
		payload.push(['extensionTestsPath', remote(extensionTestsPath)]);
	}
	let url = `${server.url}/?folder=${encodeURIComponent(resolve(workspace))}`;
	if (payload.length > 0) {
		url += `&payload=${encodeURIComponent(JSON.stringify(payload))}`;
	}
	return url;
}
